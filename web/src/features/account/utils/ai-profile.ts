import type { ResearchConfirmRequest } from '@radar/shared';

/** The six profile values an analysis returns (spec section 3, "Async task"). */
export type AnalysisResult = {
  name: string;
  email: string;
  institution: string;
  position: string;
  research_fields: string[];
  research_summary_en: string;
};

const readText = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

function readFields(value: unknown): string[] {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,，]/) : [];
  return parts.map(readText).filter(Boolean);
}

/**
 * Reads a task's `result_data`, which may hold the values directly or nested under `result`. Returns
 * null when there is nothing to save: no object, or all six values empty.
 */
export function readAnalysisResult(resultData: unknown): AnalysisResult | null {
  if (typeof resultData !== 'object' || resultData === null) return null;
  const record = resultData as Record<string, unknown>;
  const nested = record.result;
  const source = typeof nested === 'object' && nested !== null ? (nested as Record<string, unknown>) : record;
  const result: AnalysisResult = {
    name: readText(source.name),
    email: readText(source.email),
    institution: readText(source.institution),
    position: readText(source.position),
    research_fields: readFields(source.research_fields),
    research_summary_en: readText(source.research_summary_en),
  };
  const isEmpty =
    result.research_fields.length === 0 &&
    [result.name, result.email, result.institution, result.position, result.research_summary_en].every(
      (value) => value === '',
    );
  return isEmpty ? null : result;
}

/** Homepages write addresses as `name (at) host` against spam; saved as `name@host` (spec section 5). */
export function replaceAtForm(email: string): string {
  return email.replace(/\s*\(\s*at\s*\)\s*/gi, '@').trim();
}

/**
 * The profile saved after an analysis (spec section 5). The pasted page is often the supervisor's, so
 * the extracted name, institution and position are kept only when the extracted e-mail is the account's
 * own (ignoring case); otherwise those three are cleared. Fields and summary are always saved.
 */
export function buildProfileFromAnalysis(result: AnalysisResult, accountEmail: string): ResearchConfirmRequest {
  const email = replaceAtForm(result.email);
  const isOwnPage = email !== '' && email.toLowerCase() === accountEmail.trim().toLowerCase();
  return {
    research_name: isOwnPage ? result.name : '',
    research_email: email,
    research_institution: isOwnPage ? result.institution : '',
    research_position: isOwnPage ? result.position : '',
    research_fields: result.research_fields,
    research_summary_en: result.research_summary_en,
  };
}

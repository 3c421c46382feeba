import type { ResearchConfirmRequest } from '@radar/shared';

/** The six profile values an analysis returns (the result of a research-direction task). */
export type AnalysisResult = {
  name: string;
  email: string;
  institution: string;
  position: string;
  research_fields: string[];
  research_summary_en: string;
  /**
   * How the result was made, when the server says so (a field beyond the spec): 'offline' rules cannot
   * write an English summary from Chinese text. Absent from other backends; nothing depends on it.
   */
  source?: 'llm' | 'offline';
  /**
   * 'offline-gloss' when the server says research_summary_en is a draft glossed term by term from
   * Chinese text, 'own-works' when it was drafted from the reader's own works (fields beyond the spec):
   * the dialog shows it for checking instead of saving it.
   */
  research_direction_origin?: 'offline-gloss' | 'own-works';
  /** How many of the reader's works were read and stored as liked papers (own-works results only). */
  own_works?: { found: number; stored: number };
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
  if (source.source === 'llm' || source.source === 'offline') result.source = source.source;
  const origin = source.research_direction_origin;
  if ((origin === 'offline-gloss' || origin === 'own-works') && result.research_summary_en !== '') {
    result.research_direction_origin = origin;
  }
  const works = source.own_works as Record<string, unknown> | undefined;
  if (
    typeof works === 'object' &&
    works !== null &&
    typeof works.found === 'number' &&
    typeof works.stored === 'number'
  ) {
    result.own_works = { found: works.found, stored: works.stored };
  }
  const isEmpty =
    result.research_fields.length === 0 &&
    [result.name, result.email, result.institution, result.position, result.research_summary_en].every(
      (value) => value === '',
    );
  return isEmpty ? null : result;
}

/** Whether the result's English summary is a glossed draft for the user to check before it is saved. */
export const isDraftSummary = (result: AnalysisResult) =>
  result.research_direction_origin !== undefined && result.research_summary_en !== '';

/** The result as saved at once: a draft summary is left out until the user has checked it. */
export const withoutDraftSummary = (result: AnalysisResult): AnalysisResult =>
  isDraftSummary(result) ? { ...result, research_summary_en: '' } : result;

/** Homepages write addresses as `name (at) host` against spam; saved as `name@host`. */
export function replaceAtForm(email: string): string {
  return email.replace(/\s*\(\s*at\s*\)\s*/gi, '@').trim();
}

/** Whether the pasted page is the user's own: its e-mail is the account's (ignoring case). */
function isOwnPage(result: AnalysisResult, accountEmail: string): boolean {
  const email = replaceAtForm(result.email);
  return email !== '' && email.toLowerCase() === accountEmail.trim().toLowerCase();
}

/**
 * The profile saved after an analysis. The pasted page is often the supervisor's, so
 * the extracted name, institution and position are kept only when the extracted e-mail is the account's
 * own (ignoring case); otherwise those three are cleared. Fields and summary are saved when the analysis
 * produced them; when it produced none they are left out, so the confirm call keeps what is stored (an
 * analysis that found nothing never wipes a direction the user already has).
 */
export function buildProfileFromAnalysis(result: AnalysisResult, accountEmail: string): ResearchConfirmRequest {
  const own = isOwnPage(result, accountEmail);
  return {
    research_name: own ? result.name : '',
    research_email: replaceAtForm(result.email),
    research_institution: own ? result.institution : '',
    research_position: own ? result.position : '',
    ...(result.research_fields.length > 0 ? { research_fields: result.research_fields } : {}),
    ...(result.research_summary_en !== '' ? { research_summary_en: result.research_summary_en } : {}),
  };
}

/** One line of what an analysis produced: the value saved, or why there is none. */
export type AnalysisReportItem = {
  key: 'summary' | 'fields' | 'name' | 'position' | 'institution';
  /** What was saved, shown to the user; null when nothing was. */
  value: string | null;
  /**
   * Why nothing was saved: not in the text, left out because the page is not the user's own, or (the
   * summary) a draft waiting for the user's check.
   */
  reason: 'not-found' | 'not-own-page' | 'draft' | null;
};

/** What the analysis produced and what it did not, decided from the result's own fields. */
export function reportAnalysis(
  result: AnalysisResult,
  accountEmail: string,
  fieldLabel: (id: string) => string,
): AnalysisReportItem[] {
  const own = isOwnPage(result, accountEmail);
  const item = (key: AnalysisReportItem['key'], value: string, personal: boolean): AnalysisReportItem =>
    value === ''
      ? { key, value: null, reason: 'not-found' }
      : personal && !own
        ? { key, value: null, reason: 'not-own-page' }
        : { key, value, reason: null };
  return [
    isDraftSummary(result)
      ? { key: 'summary', value: null, reason: 'draft' }
      : item('summary', result.research_summary_en, false),
    item('fields', result.research_fields.map(fieldLabel).join('、'), false),
    item('name', result.name, true),
    item('position', result.position, true),
    item('institution', result.institution, true),
  ];
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/g;
export const SUMMARY_MAX_LENGTH = 5000;

/**
 * Checks an English research paragraph the user writes in the dialog: required, at most 5000
 * characters, and English (three words or more; Chinese characters at most a tenth of the Latin
 * letters, so a term in parentheses is fine). Recommendations compare it with English abstracts.
 */
export function checkEnglishSummary(text: string): 'required' | 'too-long' | 'not-english' | null {
  const value = text.trim();
  if (value === '') return 'required';
  if (value.length > SUMMARY_MAX_LENGTH) return 'too-long';
  const words = value.split(/\s+/).filter((word) => /[A-Za-z]{2,}/.test(word)).length;
  const letters = (value.match(/[A-Za-z]/g) ?? []).length;
  const cjk = (value.match(CJK) ?? []).length;
  return words < 3 || cjk > letters * 0.1 ? 'not-english' : null;
}

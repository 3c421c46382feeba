import type { AuthorIdentity } from '@radar/db';
import { asArray, asString, isRecord } from '../adapters/json-reader';
import { parseOpenAlexAuthorId, parseOrcidId } from '../own-works/author-ids';
import { inlineText } from './text';

/**
 * Who a paper's authors are, where the source says more than their names: OpenAlex authorships (author
 * id, ORCID, institutions) and Crossref authors (ORCID, affiliation lines). Kept in author order beside
 * the names (papers.author_identities), so a reader can follow a person rather than a name. Sources with
 * names only (arXiv, feeds) give none.
 */

/** Affiliations joined with '; ', at most three (OpenAlex lists a lab's parent institutions too). */
function joinAffiliations(values: (string | undefined)[]): string | undefined {
  const names = [...new Set(values.map((value) => inlineText(value)).filter(Boolean))].slice(0, 3);
  const joined = names.join('; ').slice(0, 500);
  return joined || undefined;
}

/** One OpenAlex authorship: the author's display name, their OpenAlex id and ORCID, the institutions. */
export function openAlexAuthorIdentity(authorship: Record<string, unknown>): AuthorIdentity {
  const author = isRecord(authorship.author) ? authorship.author : {};
  const institutions = asArray(authorship.institutions)
    .filter(isRecord)
    .map((institution) => asString(institution.display_name));
  const raw = asArray(authorship.raw_affiliation_strings).map(asString);
  return {
    name: inlineText(asString(author.display_name) ?? asString(authorship.raw_author_name)),
    orcid: parseOrcidId(asString(author.orcid) ?? ''),
    openalexId: parseOpenAlexAuthorId(asString(author.id) ?? ''),
    affiliation: joinAffiliations(institutions.length ? institutions : raw),
  };
}

/** One Crossref author: "Given Family" (or `name` for an organisation), ORCID, affiliation names. */
export function crossrefAuthorIdentity(author: Record<string, unknown>): AuthorIdentity {
  return {
    name: inlineText(
      asString(author.name) ?? [asString(author.given), asString(author.family)].filter(Boolean).join(' '),
    ),
    orcid: parseOrcidId(asString(author.ORCID) ?? ''),
    affiliation: joinAffiliations(
      asArray(author.affiliation)
        .filter(isRecord)
        .map((affiliation) => asString(affiliation.name)),
    ),
  };
}

/** The named authors, and their identities when at least one says more than a name (else undefined). */
export function namesAndIdentities(identities: AuthorIdentity[]): {
  authors: string[];
  authorIdentities: AuthorIdentity[] | undefined;
} {
  const named = identities.filter((identity) => identity.name);
  const compact = named.map((identity) =>
    Object.fromEntries(Object.entries(identity).filter(([, value]) => value !== undefined)),
  ) as AuthorIdentity[];
  const knowsMore = compact.some((identity) => identity.orcid || identity.openalexId || identity.affiliation);
  return { authors: named.map((identity) => identity.name), authorIdentities: knowsMore ? compact : undefined };
}

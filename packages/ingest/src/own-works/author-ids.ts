/**
 * The two author identifiers a reader can seed their profile from: an ORCID iD (public API, no key)
 * or an OpenAlex author id (needs OPENALEX_API_KEY).
 */

export type AuthorId = { kind: 'orcid'; id: string } | { kind: 'openalex'; id: string };

/**
 * ISO 7064 MOD 11-2 check character of the first 15 digits of an ORCID iD (ORCID's documented
 * algorithm): 0-9 or X for 10.
 */
function orcidCheckCharacter(digits: string): string {
  let total = 0;
  for (const digit of digits) total = (total + Number(digit)) * 2;
  const result = (12 - (total % 11)) % 11;
  return result === 10 ? 'X' : String(result);
}

/**
 * An ORCID iD in its canonical form (0000-0002-1825-0097) from what a person pastes: the bare iD,
 * with or without hyphens, or its https://orcid.org/ URL. Undefined when it is not one or its check
 * character is wrong (a typo).
 */
export function parseOrcidId(input: string): string | undefined {
  const trimmed = input.trim().replace(/^https?:\/\/(www\.)?(sandbox\.)?orcid\.org\//i, '');
  const compact = trimmed.replace(/[\s-]/g, '').toUpperCase();
  if (!/^\d{15}[\dX]$/.test(compact)) return undefined;
  if (orcidCheckCharacter(compact.slice(0, 15)) !== compact[15]) return undefined;
  return compact.match(/.{4}/g)?.join('-');
}

/** An OpenAlex author id (A5023888391) from the bare id or its openalex.org URL. */
export function parseOpenAlexAuthorId(input: string): string | undefined {
  const match = /^(?:https?:\/\/(?:api\.)?openalex\.org\/(?:authors\/)?)?(A\d{4,12})$/i.exec(input.trim());
  return match?.[1] ? match[1].toUpperCase() : undefined;
}

/** Which identifier the text is, or undefined. An ORCID-shaped text with a wrong check character is not one. */
export function parseAuthorId(input: string): AuthorId | undefined {
  const orcid = parseOrcidId(input);
  if (orcid) return { kind: 'orcid', id: orcid };
  const openalex = parseOpenAlexAuthorId(input);
  return openalex ? { kind: 'openalex', id: openalex } : undefined;
}

/**
 * Dates as feeds really write them: ISO 8601 with or without zone, RFC 822 with zone names ("EST",
 * "CEST"), Chinese (2024年3月5日), slashes, and partial dates (a year, a year and month). Values
 * without a zone are read as UTC so the result does not depend on the server's time zone.
 */

const ZONE_OFFSETS: Record<string, string> = {
  // V8 knows UT, GMT, Z and the US zones; these are the others feeds use.
  UTC: '+0000',
  WET: '+0000',
  BST: '+0100',
  CET: '+0100',
  MET: '+0100',
  WEST: '+0100',
  CEST: '+0200',
  MEST: '+0200',
  EET: '+0200',
  EEST: '+0300',
  MSK: '+0300',
  IST: '+0530',
  HKT: '+0800',
  SGT: '+0800',
  AWST: '+0800',
  JST: '+0900',
  KST: '+0900',
  ACST: '+0930',
  AEST: '+1000',
  AEDT: '+1100',
  NZST: '+1200',
  NZDT: '+1300',
};

const pad = (value: number) => String(value).padStart(2, '0');

function utcDate(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date | undefined {
  // Years before 1800 are placeholders (0001-01-01); Date.UTC would also read 0-99 as 1900-1999.
  if (year < 1800 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) {
    return undefined;
  }
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Rejects 2024-02-31 rather than rolling it over to March.
  return date.getUTCDate() === day ? date : undefined;
}

const ISO_LIKE =
  /^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;

/** A point in time, or undefined when the value is not a date this parser trusts. */
export function parseDateTime(raw: string | undefined | null): Date | undefined {
  if (!raw) return undefined;
  const value = raw.trim().replace(/\s+/g, ' ');
  if (!value) return undefined;
  let result: Date | undefined;

  const iso = ISO_LIKE.exec(value);
  const chinese = /^(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*日)?(?:\s*(\d{1,2})[:：](\d{2}))?/.exec(value);
  const slashed = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
  if (iso) {
    const [, y, m, d, hh, mm, ss, zone] = iso;
    result = utcDate(Number(y), Number(m), Number(d ?? 1), Number(hh ?? 0), Number(mm ?? 0), Number(ss ?? 0));
    if (result && zone && !/^(Z|UTC|GMT)$/i.test(zone)) {
      const sign = zone.startsWith('-') ? -1 : 1;
      const digits = zone.replace(/[^\d]/g, '');
      const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0);
      result = new Date(result.getTime() - sign * offsetMinutes * 60_000);
    }
  } else if (chinese) {
    const [, y, m, d, hh, mm] = chinese;
    // Chinese sites write Beijing time.
    const local = utcDate(Number(y), Number(m), Number(d ?? 1), Number(hh ?? 0), Number(mm ?? 0));
    result = local && (hh ? new Date(local.getTime() - 8 * 3600_000) : local);
  } else if (slashed) {
    const [, y, m, d, hh, mm, ss] = slashed;
    result = utcDate(Number(y), Number(m), Number(d), Number(hh ?? 0), Number(mm ?? 0), Number(ss ?? 0));
  } else if (/^\d{4}$/.test(value)) {
    result = utcDate(Number(value), 1, 1);
  } else {
    // RFC 822 / 1123 and other English forms: V8 reads them; zone names it does not know become offsets.
    const withOffsets = value.replace(/\b([A-Z]{3,4})$/, (zone) => ZONE_OFFSETS[zone] ?? zone);
    const parsed = Date.parse(withOffsets);
    if (!Number.isNaN(parsed)) {
      // Without an explicit zone V8 would use the server's; read such values as UTC instead.
      const hasZone = /([+-]\d{2}:?\d{2}|\b(UT|GMT|Z|[ECMP][SD]T)\b)\s*$/i.test(withOffsets);
      const date = new Date(parsed);
      result = hasZone
        ? date
        : new Date(
            Date.UTC(
              date.getFullYear(),
              date.getMonth(),
              date.getDate(),
              date.getHours(),
              date.getMinutes(),
              date.getSeconds(),
            ),
          );
    }
  }

  if (!result || Number.isNaN(result.getTime())) return undefined;
  const year = result.getUTCFullYear();
  // Outside this range the value is a placeholder (0001-01-01, 9999-12-31) or garbage.
  if (year < 1800 || result.getTime() > Date.now() + 400 * 86_400_000) return undefined;
  return result;
}

/** YYYY-MM-DD (UTC) of a parsed value. */
export function toDateString(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

export function parseDateString(raw: string | undefined | null): string | undefined {
  const date = parseDateTime(raw);
  return date ? toDateString(date) : undefined;
}

/**
 * Crossref-style date parts ([[2016]], [[2016, 5]], [[2016, 5, 17]]): missing month or day become the
 * first, so a year-only date sorts at the start of its year.
 */
export function dateFromParts(parts: unknown): string | undefined {
  if (!Array.isArray(parts) || !Array.isArray(parts[0])) return undefined;
  const [year, month, day] = (parts[0] as unknown[]).map((part) => Number(part));
  if (!year || !Number.isInteger(year)) return undefined;
  const date = utcDate(year, month && Number.isInteger(month) ? month : 1, day && Number.isInteger(day) ? day : 1);
  if (!date || year < 1800 || date.getTime() > Date.now() + 400 * 86_400_000) return undefined;
  return toDateString(date);
}

export function daysBefore(date: Date, days: number): Date {
  return new Date(date.getTime() - days * 86_400_000);
}

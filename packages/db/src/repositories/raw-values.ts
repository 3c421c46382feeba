/** A timestamp column of a raw SQL row (node-postgres gives a Date, PGlite may give text); null stays null. */
export const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(String(value));

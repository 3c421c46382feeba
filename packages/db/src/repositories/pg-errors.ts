/** PostgreSQL's foreign-key violation: the paper (or user) was deleted by another transaction meanwhile. */
export const isForeignKeyViolation = (error: unknown) => {
  const err = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  return err?.code === '23503' || err?.cause?.code === '23503';
};

/** PostgreSQL's unique violation: another transaction took the value (an e-mail address) meanwhile. */
export const isUniqueViolation = (error: unknown) => {
  const err = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  return err?.code === '23505' || err?.cause?.code === '23505';
};

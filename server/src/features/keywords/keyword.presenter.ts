import type { KeywordRow } from '@radar/db';
import type { AlertFrequency, Keyword } from '@radar/shared';

/** The Keyword of the data model with its alert settings, as every keyword endpoint returns it. */
export function presentKeyword(row: KeywordRow): Keyword {
  return {
    id: String(row.id),
    name: row.name,
    created_at: row.createdAt.toISOString(),
    alert_enabled: row.alertEnabled,
    // The column is text; anything but 'weekly' is daily, as the alert job reads it.
    alert_frequency: (row.alertFrequency === 'weekly' ? 'weekly' : 'daily') satisfies AlertFrequency,
    negative_terms: row.negativeTerms,
    last_alerted_at: row.lastAlertedAt ? row.lastAlertedAt.toISOString() : null,
  };
}

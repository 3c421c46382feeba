import type { ContentFreshness } from '@radar/db';
import type { Freshness } from '@radar/shared';

export const presentFreshness = (freshness: ContentFreshness): Freshness => ({
  last_new_item_at: freshness.lastNewItemAt?.toISOString() ?? null,
  last_checked_at: freshness.lastCheckedAt?.toISOString() ?? null,
  last_success_at: freshness.lastSuccessAt?.toISOString() ?? null,
  new_items_last_7_days: freshness.newItemsLast7Days,
});

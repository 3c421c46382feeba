-- A keyword's delivered alerts by keyword: removing a keyword (or an account, with its keywords) sets
-- keyword_alert_deliveries.keyword_id to NULL on its rows (ON DELETE SET NULL), which without an index
-- scans the whole table once per keyword: 10,000 readers' keywords took over 17 minutes to delete beside
-- a few hundred thousand delivered alerts (pnpm bench:delivery). Partial: most rows' keyword is gone or kept.
CREATE INDEX IF NOT EXISTS keyword_alert_deliveries_keyword_idx ON radar.keyword_alert_deliveries (keyword_id)
  WHERE keyword_id IS NOT NULL;

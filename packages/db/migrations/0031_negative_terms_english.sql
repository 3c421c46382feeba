-- A followed keyword's negative terms (排除词) typed in Chinese also exclude what says them in English, as
-- the keyword itself matches its English (migration 0028): for each negative term, in the order of
-- negative_terms, its English alternatives from the one glossary ([] for none). NULL for a keyword whose
-- negative terms were set before they were glossed (filled in once at start) or that has none in Chinese.
ALTER TABLE radar.user_keywords ADD COLUMN negative_english jsonb;

-- Contact-form messages and feedback are always stored, and mailed only when FEEDBACK_TO or
-- SUPPORT_EMAIL is set: an operator reads them with `radar messages` and marks them read, and
-- `radar status` counts the unread ones. Rows stored before this column are unread.
ALTER TABLE radar.feedback ADD COLUMN read_at timestamp with time zone;

-- A member's archive of all their data (docs/data-export.md). The job builds it in the
-- background into the object store; a download link is one use and short-lived, and only the
-- SHA-256 of its token is kept. The partial unique index keeps one unfinished export per
-- member even when two requests race.
CREATE TABLE data_exports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status text NOT NULL
    CHECK (status IN ('requested', 'building', 'ready', 'failed', 'withdrawn', 'expired')),
  attempts integer NOT NULL DEFAULT 0,
  object_name text,
  byte_size bigint,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  ready_at timestamptz,
  expires_at timestamptz,
  link_hash text UNIQUE,
  link_expires_at timestamptz,
  link_used_at timestamptz
);
CREATE INDEX data_exports_user_idx ON data_exports (user_id, created_at);
CREATE UNIQUE INDEX data_exports_one_open_idx ON data_exports (user_id)
  WHERE status IN ('requested', 'building');
CREATE INDEX data_exports_work_idx ON data_exports (status, updated_at)
  WHERE status IN ('requested', 'building', 'ready');

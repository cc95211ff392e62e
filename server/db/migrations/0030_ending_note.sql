-- The ending note (エンディングノート): one row per saved section of a member's note, the
-- connections the member designated as readers, and the mark death detection sets.

-- Set by the death-detection capability once a member's death is confirmed and its grace
-- period has passed; null while the member is alive or the death is unconfirmed. Ending-note
-- sections visible "after my death is confirmed" open to designated readers from then on.
ALTER TABLE users ADD COLUMN IF NOT EXISTS death_confirmed_at timestamptz;

CREATE TABLE ending_note_sections (
  owner_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- A section code of src/contract/rules/endingnote.ts (self, medical, funeral, assets, ...).
  section text NOT NULL,
  -- Field values that are not secret, keyed by field code.
  content jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- Asset and account field values, each sealed with AES-256-GCM ("<key version>:<data>").
  sealed jsonb NOT NULL DEFAULT '{}'::jsonb,
  visibility text NOT NULL DEFAULT 'private'
    CHECK (visibility IN ('private', 'readers_now', 'readers_after_death')),
  -- Optimistic concurrency: a save names the version it started from; 0 means never saved.
  version integer NOT NULL DEFAULT 0 CHECK (version >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (owner_user_id, section)
);

-- Readers are designated for the whole note; each section's visibility says when they read it.
CREATE TABLE ending_note_readers (
  owner_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reader_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (owner_user_id, reader_user_id),
  CHECK (owner_user_id <> reader_user_id)
);
CREATE INDEX ending_note_readers_reader_idx ON ending_note_readers (reader_user_id);

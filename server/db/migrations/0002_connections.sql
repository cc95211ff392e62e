-- Connections between members (つながり): one row per direction, so each side keeps the
-- relationship it chose; requests carry the state of an offer until it is answered.

CREATE TABLE connections (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  other_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  relationship text NOT NULL DEFAULT 'other' CHECK (relationship IN ('family', 'relative', 'friend', 'acquaintance', 'other')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, other_user_id),
  CHECK (user_id <> other_user_id)
);
CREATE INDEX connections_other_idx ON connections (other_user_id);

CREATE TABLE connection_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  from_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  to_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  relationship text NOT NULL DEFAULT 'other' CHECK (relationship IN ('family', 'relative', 'friend', 'acquaintance', 'other')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  responded_at timestamptz,
  CHECK (from_user_id <> to_user_id)
);
-- At most one open request between two members, whichever way it goes.
CREATE UNIQUE INDEX connection_requests_open_pair_key
  ON connection_requests (least(from_user_id, to_user_id), greatest(from_user_id, to_user_id))
  WHERE status = 'pending';

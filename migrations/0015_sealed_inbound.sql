-- Sealed secrets in stored inbound mail (issue 32, RULING M11): a message is stored with the tag
-- of every signed reply address and the token of every ORDERS line replaced by a placeholder of
-- the same shape; `sealed` lists, per placeholder written, the SHA-256 of the secret it replaced,
-- so routing can check it with the server key and nothing stored opens a seat. NULL: a message
-- stored before, which the server seals on its next pass (`sealed_pending` finds them).
ALTER TABLE inbound_messages ADD COLUMN IF NOT EXISTS sealed jsonb;
CREATE INDEX IF NOT EXISTS inbound_unsealed ON inbound_messages (id) WHERE sealed IS NULL;

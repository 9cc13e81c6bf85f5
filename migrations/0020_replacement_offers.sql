-- Issue 37, its remainders: a running game's seat offered as a replacement by a link or to the
-- waiting list (RULING W61), places whose links and reply addresses outlive a key rotation
-- (RULING P9), and co-GMs of games still waiting for their seats (RULING W62).

-- A replacement offer is a place of a running game's seat (`seat_places.seat`, 0017), taken by
-- whoever opens its link first, or by the first player on the game's waiting list.
ALTER TABLE seat_places DROP CONSTRAINT seat_places_kind_check;
ALTER TABLE seat_places ADD CONSTRAINT seat_places_kind_check
    CHECK (kind IN ('invited', 'joined', 'replacement'));
ALTER TABLE seat_places ADD CONSTRAINT seat_places_replacement_seat
    CHECK ((kind = 'replacement') = (seat IS NOT NULL));

-- RULING P9: a place's mail queued before a key rotation and sent after it carries the new key's
-- link; its hash stands beside the first one. The reply address's tag under the key the mail was
-- sent with is kept as a hash, so a reply to a mail from before the rotation still answers.
ALTER TABLE seat_places ADD COLUMN token_hash_next text UNIQUE;
ALTER TABLE seat_places ADD COLUMN reply_tag_hashes text[] NOT NULL DEFAULT '{}';

-- RULING W62: a co-GM may be added to a game still waiting for its seats, before its row in
-- `games` exists (the audit log's reference went the same way in 0017).
ALTER TABLE game_gms DROP CONSTRAINT game_gms_game_id_fkey;

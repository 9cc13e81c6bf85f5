-- The two limits checked for every inbound mail, each by an index holding only the rows it counts:
-- a seat's accepted order mails this turn (the per-turn limit) used to visit every mail of the
-- game, and a sender's recent rejections (the rejection rate limit) every recent mail of the
-- sender. Both grew with the game's mail; now each reads only the rows it counts.
CREATE INDEX inbound_accepted_per_turn ON inbound_messages (game_id, turn, seat) WHERE status = 'accepted';
DROP INDEX inbound_from_recent;
CREATE INDEX inbound_rejected_recent ON inbound_messages (lower(from_addr), received_at) WHERE status = 'rejected';

-- Issue 15: a decision the rules refer to the GM (1835 HR 17 rung B) stops the turn for the GM's
-- choice unless the GM chose not to be asked; then the best-ranked candidate is played (RULING
-- S18). Every game, old ones too, asks by default.
ALTER TABLE games ADD COLUMN gm_referrals boolean NOT NULL DEFAULT true;

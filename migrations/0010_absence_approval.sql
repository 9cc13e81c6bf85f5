-- Issue 12: a player's absence moves the deadline for the whole table only with the GM's approval
-- when the game says so (RULING S9). Games created before keep what their players were told:
-- absences take effect at once. Recorded absences stay in force.
ALTER TABLE games ADD COLUMN absence_approval boolean NOT NULL DEFAULT false;
ALTER TABLE absences ADD COLUMN approved boolean NOT NULL DEFAULT true;

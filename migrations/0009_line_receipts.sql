-- Receipts sealed line by line (issue 11, RULING P3): each order line gets its own random salt,
-- so a published turn can show the lines the engine calls public (text and salt) and only the
-- hash of every other line, while the receipt digest (over the line hashes) stays checkable.
-- NULL = a version sealed under the old scheme (one salt over the whole text), which is
-- published as its digest only.
ALTER TABLE order_versions ADD COLUMN line_salts text[];

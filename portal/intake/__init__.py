"""What every public form shares: fields, validators, the base form, photo intake,
pending uploads, and storing a case."""

"""Search past what a table holds: digit spaces, balls, pattern databases,
IDA*, meet in the middle, subgroup chains."""

"""The public status page a person reaches with the secret link from their confirmation."""

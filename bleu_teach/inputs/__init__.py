"""What comes in: token lists checked, raw text tokenized, a corpus's reference layout read (standard library only)."""

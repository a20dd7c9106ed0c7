"""chrF and chrF++ on sacreBLEU's terms: counting -> arithmetic -> reports (standard library only)."""

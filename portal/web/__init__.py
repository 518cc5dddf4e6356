"""Request plumbing shared by every page: security headers, caching, error pages, rate limits,
the proxy in front, templates, the site's files and the report form's offline support."""

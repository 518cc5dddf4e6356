"""The release notification (the ordinance's release notification section): its pages (views),
forms, choices and record."""

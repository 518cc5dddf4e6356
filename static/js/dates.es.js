/* Dates as portal/core/display.py writes them in Spanish, "30 de noviembre de 2026,
   1:16 p. m." (`clockOnly`: "1:16 p. m."), in the municipality's time zone `tz`: drafts.js's
   when() uses it on the Spanish pages that load it (My reports, the form, the thanks page). */
self.localWhen = (moment, tz, clockOnly) => {
  const at = (options) => new Intl.DateTimeFormat('es', { timeZone: tz || undefined, ...options })
    .format(new Date(moment)).replace(/\s/g, ' ');
  const clock = at({ hour: 'numeric', minute: '2-digit', hour12: true });
  return clockOnly ? clock : `${at({ day: 'numeric', month: 'long', year: 'numeric' })}, ${clock}`;
};

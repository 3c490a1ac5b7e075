// Runs in <head> before the first paint: applies the colour scheme stored by the app
// (web/src/lib/theme.ts, same key) so a dark page never flashes light. Kept tiny and dependency-free.
(function () {
  var stored = null;
  try {
    stored = window.localStorage.getItem('hatchery-color-scheme');
  } catch (e) {
    // Storage can be disabled; fall back to the system preference.
  }
  var scheme = stored === 'light' || stored === 'dark' ? stored : window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  document.documentElement.style.colorScheme = scheme;
})();

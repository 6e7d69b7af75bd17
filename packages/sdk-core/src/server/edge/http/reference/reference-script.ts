/**
 * The reference page's own script (served at `/docs/assets/reference.js`, so the page needs no inline script):
 * reads the configuration the server wrote into the page as JSON and mounts Scalar's reference. When the bundle did
 * not load, it says so and points to the page without scripts.
 */
export const REFERENCE_SCRIPT = `(function () {
  var element = document.getElementById('palaver-reference-config');
  var mount = document.getElementById('app');
  if (!element || !mount) return;
  var config = JSON.parse(element.textContent || '{}');
  if (typeof Scalar === 'undefined' || typeof Scalar.createApiReference !== 'function') {
    mount.innerHTML = '<p style="font:16px system-ui;margin:2rem">The interactive reference could not load. <a href="' + config.plainUrl + '">Read the reference without scripts</a>.</p>';
    return;
  }
  delete config.plainUrl;
  Scalar.createApiReference('#app', config);
})();
`;

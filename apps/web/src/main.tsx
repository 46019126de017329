import { render } from 'preact';
import { pastedToken, signedInHere } from './api/client.js';
import { readFirstPageEarly } from './api/organization.js';
import { App } from './app.js';

// The overview, where most visits start, needs the websites first: ask before drawing anything
// (when someone signed in here last time; a signed-out visit asks nothing before signing in).
if (location.pathname === '/' && (signedInHere.get() || pastedToken.get())) readFirstPageEarly();

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}

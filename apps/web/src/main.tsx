import { render } from 'preact';
import { readFirstPageEarly } from './api/organization.js';
import { App } from './app.js';

// The overview, where most visits start, needs the websites first: ask before drawing anything.
if (location.pathname === '/') readFirstPageEarly();

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}

/**
 * The browser app's pages, one list for both sides: the app's router draws a screen at each
 * (apps/web/src/app.tsx names a screen for every entry, checked by the compiler) and the API
 * answers index.html at each (apps/api/routes/app.ts), so a page the app links to also opens on a reload.
 * Paths only: the browser bundle imports this file.
 */
export const APP_PAGES = [
  '/',
  '/sign-in',
  '/accept-invitation',
  '/reset-password',
  '/account',
  '/customers',
  '/customers/:id',
  '/customers/:id/report',
  '/websites/:ref',
  '/websites/:ref/edit',
  '/maintenance',
  '/schedules',
  '/schedules/:ref',
  '/escalation-policies',
  '/escalation-policies/:ref',
  '/channels',
  '/channels/:ref',
  '/status-pages',
  '/status-pages/:ref',
  '/status-pages/:ref/incidents',
  '/status-pages/:ref/subscribers',
  '/packages',
  '/people',
  '/audit',
  '/settings',
  '/identity-providers',
  '/identity-providers/:id',
  '/scim',
  '/incidents',
  '/incidents/:ref',
  '/imports',
  '/site-health',
] as const;

export type AppPage = (typeof APP_PAGES)[number];

/** The pages open to someone signed out (the others send them to the sign-in first). */
export const PUBLIC_APP_PAGES: readonly AppPage[] = ['/sign-in', '/accept-invitation', '/reset-password'];

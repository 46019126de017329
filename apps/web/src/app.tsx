import type { ComponentType } from 'preact';
import { useEffect } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, lazy, Route, Router, useLocation } from 'preact-iso';
import { APP_PAGES, type AppPage, PUBLIC_APP_PAGES } from '../../../libs/dashboard/app-pages.js';
import { QueryProvider } from './api/query.js';
import { Overview } from './overview/overview.js';
import { AcceptInvitation } from './people/accept-invitation.js';
import { ResetPassword } from './people/reset-password.js';
import { SignIn } from './people/sign-in.js';
import { canEdit, clientCustomerId, isAdmin, SessionProvider, useSession } from './session.js';

// Screens behind the sign-in load on demand: the first load stays small. The overview, where
// most visits start, comes with the app: loading it after the app's script costs a round trip.
const Account = lazy(() => import('./people/account.js').then((m) => m.Account));
const Customers = lazy(() => import('./customers/customers.js').then((m) => m.Customers));
const CustomerPage = lazy(() => import('./customers/customer-page.js').then((m) => m.CustomerPage));
const WebsitePage = lazy(() => import('./websites/website-page.js').then((m) => m.WebsitePage));
const WebsiteEdit = lazy(() => import('./websites/website-edit.js').then((m) => m.WebsiteEdit));
const Maintenance = lazy(() => import('./maintenance/maintenance.js').then((m) => m.Maintenance));
const Schedules = lazy(() => import('./schedules/schedule-list.js').then((m) => m.Schedules));
const SchedulePage = lazy(() => import('./schedules/schedule-page.js').then((m) => m.SchedulePage));
const EscalationPolicies = lazy(() =>
  import('./escalation/policy-list.js').then((m) => m.EscalationPolicies),
);
const EscalationPolicyPage = lazy(() =>
  import('./escalation/policy-page.js').then((m) => m.EscalationPolicyPage),
);
const Channels = lazy(() => import('./channels/channel-list.js').then((m) => m.Channels));
const ChannelPage = lazy(() => import('./channels/channel-page.js').then((m) => m.ChannelPage));
const StatusPages = lazy(() => import('./status-pages/status-page-list.js').then((m) => m.StatusPages));
const StatusPageEdit = lazy(() => import('./status-pages/status-page-edit.js').then((m) => m.StatusPageEdit));
const IncidentPosts = lazy(() => import('./status-pages/incident-posts.js').then((m) => m.IncidentPosts));
const StatusPageSubscribers = lazy(() =>
  import('./status-pages/status-page-subscribers.js').then((m) => m.StatusPageSubscribers),
);
const Packages = lazy(() => import('./packages/packages.js').then((m) => m.Packages));
const People = lazy(() => import('./people/people.js').then((m) => m.People));
const AuditLog = lazy(() => import('./audit/audit-log.js').then((m) => m.AuditLog));
const Incidents = lazy(() => import('./incidents/incidents.js').then((m) => m.Incidents));
const ImportPage = lazy(() => import('./imports/import-page.js').then((m) => m.ImportPage));
const Settings = lazy(() => import('./organization/settings.js').then((m) => m.Settings));
const IdentityProviders = lazy(() => import('./sso/identity-providers.js').then((m) => m.IdentityProviders));
const IdentityProviderPage = lazy(() =>
  import('./sso/identity-provider-page.js').then((m) => m.IdentityProviderPage),
);
const ScimTokens = lazy(() => import('./scim/scim-tokens.js').then((m) => m.ScimTokens));
const ReportPage = lazy(() => import('./reports/report-page.js').then((m) => m.ReportPage));
const IncidentPage = lazy(() => import('./incidents/incident-page.js').then((m) => m.IncidentPage));
const SiteHealthOverview = lazy(() =>
  import('./site-health/site-health-overview.js').then((m) => m.SiteHealthOverview),
);

/**
 * The screen of each of the app's pages. The pages are the list the server answers index.html at
 * (libs/dashboard/app-pages.ts): a page is added there, and the compiler asks for its screen here.
 */
const SCREENS = {
  '/sign-in': SignIn,
  '/accept-invitation': AcceptInvitation,
  '/reset-password': ResetPassword,
  '/': Overview,
  '/site-health': SiteHealthOverview,
  '/account': Account,
  '/customers': Customers,
  '/customers/:id': CustomerPage,
  '/customers/:id/report': ReportPage,
  '/websites/:ref': WebsitePage,
  '/websites/:ref/edit': WebsiteEdit,
  '/maintenance': Maintenance,
  '/schedules': Schedules,
  '/schedules/:ref': SchedulePage,
  '/escalation-policies': EscalationPolicies,
  '/escalation-policies/:ref': EscalationPolicyPage,
  '/channels': Channels,
  '/channels/:ref': ChannelPage,
  '/status-pages': StatusPages,
  '/status-pages/:ref': StatusPageEdit,
  '/status-pages/:ref/incidents': IncidentPosts,
  '/status-pages/:ref/subscribers': StatusPageSubscribers,
  '/packages': Packages,
  '/people': People,
  '/audit': AuditLog,
  '/settings': Settings,
  '/identity-providers': IdentityProviders,
  '/identity-providers/:id': IdentityProviderPage,
  '/scim': ScimTokens,
  '/incidents': Incidents,
  '/incidents/:ref': IncidentPage,
  '/imports': ImportPage,
} satisfies Record<AppPage, ComponentType>;

export function App() {
  return (
    <LocationProvider>
      <QueryProvider>
        <SessionProvider>
          <Shell />
        </SessionProvider>
      </QueryProvider>
    </LocationProvider>
  );
}

function Shell() {
  const { caller, mustEnrol, signOut } = useSession();
  const { path, url, route } = useLocation();
  const isPublic = (PUBLIC_APP_PAGES as readonly string[]).includes(path);
  const current = (prefix: string) => (path.startsWith(prefix) ? 'page' : undefined);
  useEffect(() => {
    if (caller === null && !isPublic) route(`/sign-in?next=${encodeURIComponent(url)}`, true);
    if (caller && mustEnrol && path !== '/account') route('/account', true);
  }, [caller, isPublic, url, route, mustEnrol, path]);
  // Each screen names itself: the title says where one is (screen readers, tabs, history).
  useEffect(() => {
    const heading = document.querySelector('main h1');
    document.title = heading?.textContent ? `${heading.textContent} · webmon` : 'webmon';
  });

  return (
    <>
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <header class="top">
        <a href="/" class="brand">
          <span aria-hidden="true">◉</span> webmon
        </a>
        {caller && (
          <nav aria-label="Main">
            <a href="/" aria-current={path === '/' ? 'page' : undefined}>
              Overview
            </a>
            <a href="/site-health" aria-current={current('/site-health')}>
              Site health
            </a>
            {canEdit(caller) && (
              <a href="/customers" aria-current={path.startsWith('/customers') ? 'page' : undefined}>
                Customers
              </a>
            )}
            <a href="/incidents" aria-current={current('/incidents')}>
              Incidents
            </a>
            {clientCustomerId(caller) === null && (
              <a href="/schedules" aria-current={current('/schedules')}>
                On call
              </a>
            )}
            {clientCustomerId(caller) === null && (
              <a href="/escalation-policies" aria-current={current('/escalation-policies')}>
                Escalation
              </a>
            )}
            {clientCustomerId(caller) !== null && (
              <a href={`/customers/${clientCustomerId(caller)}/report`} aria-current={current('/customers/')}>
                Reports
              </a>
            )}
            {canEdit(caller) && (
              <>
                <a href="/maintenance" aria-current={current('/maintenance')}>
                  Maintenance
                </a>
                <a href="/channels" aria-current={current('/channels')}>
                  Channels
                </a>
              </>
            )}
            <a href="/status-pages" aria-current={current('/status-pages')}>
              Status pages
            </a>
            {isAdmin(caller) && (
              <>
                <a href="/packages" aria-current={current('/packages')}>
                  Packages
                </a>
                <a href="/people" aria-current={current('/people')}>
                  People
                </a>
                <a href="/audit" aria-current={current('/audit')}>
                  Audit log
                </a>
                <a
                  href="/settings"
                  aria-current={current('/settings') ?? current('/identity-providers') ?? current('/scim')}
                >
                  Settings
                </a>
              </>
            )}
            <a href="/account" aria-current={path === '/account' ? 'page' : undefined}>
              {caller.kind === 'person' ? caller.user.name : 'API token'}
            </a>
            <button type="button" class="link" onClick={() => void signOut()}>
              Sign out
            </button>
          </nav>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {caller === undefined ? (
          <p role="status">Loading…</p>
        ) : caller === null && !isPublic ? (
          <p role="status">Redirecting to sign in…</p>
        ) : (
          <ErrorBoundary onError={reloadOnMissingChunk}>
            <Router>
              {APP_PAGES.map((page) => (
                <Route key={page} path={page} component={SCREENS[page]} />
              ))}
              <Route default component={NotFound} />
            </Router>
          </ErrorBoundary>
        )}
      </main>
    </>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        There is no page here. <a href="/">Go to the overview</a>.
      </p>
    </section>
  );
}

/**
 * A screen's file named by an older build is gone after a deploy: load the new index.html, once
 * per build (the entry script's hashed name), so a real failure does not reload forever.
 */
function reloadOnMissingChunk(error: Error) {
  if (!/dynamically imported module|Importing a module script failed/.test(error.message)) return;
  const build = document.querySelector<HTMLScriptElement>('script[type="module"]')?.src ?? '';
  if (sessionStorage.getItem('webmon-reloaded-for') === build) return;
  sessionStorage.setItem('webmon-reloaded-for', build);
  location.reload();
}

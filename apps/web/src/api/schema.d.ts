// Generated from GET /openapi.json by openapi-typescript: UPDATE_API_TYPES=1 npx vitest run test/app-api-types.test.ts
export interface paths {
    "/monitoring.schema.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The JSON Schema of a monitoring file (monitoring as code: `webmon plan|apply`)
         * @description Generated from the same schemas as the API’s request bodies: packages, customers with their websites, checks, maintenance windows and monitors (each kind as its create route takes it), notification channels (write-only values as `{env: NAME}`), status pages.
         */
        get: operations["getMonitoringFileSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process is up */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: MongoDB and Redis are reachable (degraded: a process working on without one) */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (text exposition format) */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/problems/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a problem type (the `type` of an error response) means */
        get: operations["getProblemType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the organization's API tokens (never the tokens themselves) */
        get: operations["listTokens"];
        put?: never;
        /** Create an API token; the response shows it once */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one API token */
        get: operations["getToken"];
        put?: never;
        post?: never;
        /**
         * Revoke an API token (it stops working at once)
         * @description The organization's last active admin token (not counting personal ones) cannot be revoked over the API (409).
         */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in person's own API tokens (never the tokens themselves) */
        get: operations["listMyTokens"];
        put?: never;
        /**
         * Create a personal API token, no wider than your role; the response shows it once
         * @description Scopes within the role's (viewer: read; editor: read, write; admin and owner: up to admin), else 400 naming `scopes`. A client's token is read-only and bound to its customer (`customerId` may be omitted; another is 400). The token is revoked when you are removed or your role narrows below it.
         */
        post: operations["createMyToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of your personal API tokens */
        get: operations["getMyToken"];
        put?: never;
        post?: never;
        /** Revoke one of your personal API tokens (it stops working at once) */
        delete: operations["revokeMyToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in: answers the user and sets the session cookie
         * @description Sets `webmon_session` (HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS) and the device cookie `webmon_device` (HttpOnly, SameSite=Strict, Path=/api/auth). A wrong e-mail and a wrong password answer the same 401. Budgets (429 with Retry-After and `reason`): successful sign-ins per account and per address, failed ones per account (the account is locked: only a browser with its device cookie, or the password with a second factor, passes), per address and service-wide. 503 with Retry-After when the password-hash queue is full.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change your password: every session of yours ends, this browser gets a new one
         * @description A wrong `currentPassword` is 400 naming it and counts as a failed sign-in of the account (429 past the budget); a new password the policy refuses is 400 naming `newPassword`.
         */
        post: operations["changeMyPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out: ends this session and clears its cookie */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who calls: the signed-in user or the API token, its organization and scopes
         * @description `kind` tells them apart: `person` (the session cookie) with `user`, `token` with the token’s id, name and prefix (never the token itself).
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user's sessions, oldest first */
        get: operations["listMySessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/sessions/{handle}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one of your sessions (sign out elsewhere) */
        delete: operations["endMySession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/two-factor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a TOTP enrolment: answers the secret once; confirm it with a code
         * @description The secret is stored sealed and stays pending until `POST /api/me/two-factor/confirm`; starting again replaces a pending one. 409 when two-factor is already on.
         */
        post: operations["startTwoFactorEnrolment"];
        /**
         * Turn two-factor sign-in off, with a current code or a recovery code
         * @description A wrong code is 400 naming `code`; 409 when two-factor is not on.
         */
        delete: operations["disableTwoFactor"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/two-factor/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn two-factor sign-in on with a current code; answers ten recovery codes once
         * @description A wrong or already used code is 400 naming `code`; 409 when no enrolment is pending. Only hashes of the recovery codes are kept. Every other session of the person ends (they were opened with the password alone).
         */
        post: operations["confirmTwoFactor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's users, oldest first */
        get: operations["listUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a user and end their sessions
         * @description Only an owner may delete an owner; the last owner cannot be deleted (409).
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /**
         * Change a user's name, role or customer
         * @description Only an owner may change an owner or make one; the last owner keeps the role (409). A client needs `customerId`.
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/api/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's invitations not yet accepted (expired ones too), oldest first */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite a person by e-mail: a one-time link, valid 72 h, to choose a name and password
         * @description The mail goes through SMTP_URL (503 when it is unset or the server refuses the mail; nothing is kept then). `customerId` is required for a client and refused otherwise; only an owner invites an owner; an e-mail with an account already is 409.
         */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Withdraw an invitation: its link stops working */
        delete: operations["deleteInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/accept-invitation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation: makes the user and signs them in (session cookie)
         * @description An unknown, used or expired token answers the same 400 naming `token`. A password the policy refuses (its schema describes the rule) is 400 naming `password`. Sets `webmon_session` as login does.
         */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a password-reset link by e-mail (valid 1 h, once)
         * @description Always 202, at once, whether the e-mail is a user’s or not (the mail, if any, goes afterwards); 503 when SMTP_URL is unset.
         */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with the link’s token; every session of the user ends
         * @description An unknown, used or expired token answers the same 400 naming `token`. A password the policy refuses (its schema describes the rule) is 400 naming `password`.
         */
        post: operations["confirmPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/packages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's packages
         * @description A caller bound to one customer (client user, customer-bound token) gets its customer's package only.
         */
        get: operations["listPackages"];
        put?: never;
        /**
         * Create a package: features, limits and alerting defaults
         * @description Omitted features default to allowed; omitted limits and alerting values take the documented defaults.
         */
        post: operations["createPackage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/packages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a package
         * @description A caller bound to one customer reads its customer's package only (another is 404).
         */
        get: operations["getPackage"];
        put?: never;
        post?: never;
        /** Delete a package no customer is on */
        delete: operations["deletePackage"];
        options?: never;
        head?: never;
        /** Change a package; nested objects are merged */
        patch: operations["updatePackage"];
        trace?: never;
    };
    "/api/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List all customers of an organization
         * @description organizationId must be the id of the token’s organization (403 otherwise).
         */
        get: operations["listCustomers"];
        put?: never;
        /** Create a customer on a package */
        post: operations["createCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a customer (client environment) on a plan: automation endpoint */
        post: operations["createCustomerByPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a customer */
        get: operations["getCustomer"];
        put?: never;
        post?: never;
        /** Delete a customer that has no websites */
        delete: operations["deleteCustomer"];
        options?: never;
        head?: never;
        /**
         * Change a customer: details, package, status
         * @description Status: active → marked_for_cancellation (cancellationDate defaults to the end of the current UTC month and must be in the future) → cancelled when the date passes (its websites stop being checked; data is kept). marked_for_cancellation → active clears the date; cancelled → active restarts checks. Other transitions: 409. `null` clears email or notificationEmail.
         */
        patch: operations["updateCustomer"];
        trace?: never;
    };
    "/api/websites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's websites, or one customer's, with their status
         * @description Without customerId: every customer's websites, a page of `limit` (100) at a time; a `Link: <…>; rel="next"` header points to the next page. A page filtered by `status` may hold fewer. `q` searches names and URLs (without the scheme) for a text of 3 characters or more; a search page may hold fewer too (it reads at most 1,000 candidates), the Link header then says where to go on.
         */
        get: operations["listWebsites"];
        put?: never;
        /**
         * Add a website to a customer
         * @description Omitted fields take their defaults. The website is scheduled before the response is sent.
         */
        post: operations["createWebsite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add up to 1,000 websites at once, each with its check configuration
         * @description Every item is validated first as a single create validates it (its fields, its customer, the package’s features and limits for the whole batch, its channels, its `checkConfig`). Any invalid item: 400 naming each `items.<index>.<field>`, nothing written, unless `partial: true` (the valid ones are written; each item says how it went). Items valid in themselves but past their customer’s package `maxWebsites` (with no other invalid item): 409 naming each `items.<index>.customerId`, nothing written. `dryRun: true` writes nothing and says which items would be created. The websites are stored in bulk and scheduled before the answer.
         */
        post: operations["createWebsites"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/summaries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List websites as `GET /api/websites` does, each in a few fields (for overviews that poll)
         * @description The same pages, filters, search and Link header as `GET /api/websites`, up to 1,000 a page, each website as its ids, customer, name, URL and status: about a tenth of the bytes, for a screen that reads every website every few seconds.
         */
        get: operations["listWebsiteSummaries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{websiteRef}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a website by publicId (UUID) or integer id */
        get: operations["getWebsite"];
        put?: never;
        post?: never;
        /** Delete a website and stop checking it */
        delete: operations["deleteWebsite"];
        options?: never;
        head?: never;
        /**
         * Update a website (full or partial)
         * @description A body with customerId, name and url is a full update: every omitted optional field returns to its default (except mtlsClientKey, which is write-only and kept unless sent as null). Any other body is a partial update: only the fields sent change. The path takes the publicId (UUID).
         */
        patch: operations["updateWebsite"];
        trace?: never;
    };
    "/api/websites/{websiteRef}/check-config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Which checks run for a website, and their settings */
        get: operations["getCheckConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change which checks run; the fields sent are merged
         * @description Turning on a check the customer’s package lacks answers 403 naming it (assertions need the package feature `assertions`). minPageSize must not exceed maxPageSize; the keyword check needs a keyword; the size check needs a bound. responseTimeThresholdMs null returns to the package default. `assertions` (at most 20) replaces the list: each tests the JSON body at an RFC 9535 JSONPath (its first node), a header, the body, the status or the response time; `matches` takes an RE2 pattern (linear time: no backreferences or lookaround); all must hold, else the website is down and the failed ones are named in the result, the incident cause and the alert.
         */
        patch: operations["updateCheckConfig"];
        trace?: never;
    };
    "/api/websites/{websiteRef}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Current status of a website
         * @description status: cancelled (its customer is), paused, unmonitored (no region it may be checked from has an active monitoring node; `unmonitored` says why), maintenance, or the confirmed health (unknown until the first result, up, degraded, down). `since`: when that status began. Per region: its latest result, and whether it is fresh (its latest result within two intervals plus the re-check delay, and the region still serving); only fresh regions decide the status.
         */
        get: operations["getWebsiteStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{websiteRef}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check results, newest first, in pages
         * @description Without `kind` and `monitorId`: the results of every monitor of the website (its HTTP check and its DNS, port and probe checks), merged newest first, each with its `kind` and `monitorId`. With `kind` (http, dns, port, icmp, udp, grpc, websocket, smtp, imap, pop3): those of its monitors of that kind; with `monitorId`: that monitor’s. Pages follow `nextCursor` either way (a heartbeat’s pings are at /api/heartbeats/{id}/pings).
         */
        get: operations["listWebsiteResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{websiteRef}/results/{resultRef}/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a failing check saw: the answer (status, headers, body as text) or why none came
         * @description Kept with every down or degraded result; the body once per website, region and 5 minutes (other results say it was omitted). Cookies, credentials and the website’s secret headers are redacted, their values blanked wherever the server echoed them. 404 for a result without evidence.
         */
        get: operations["getResultEvidence"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{websiteRef}/uptime": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Uptime, downtime and response time percentiles over a period */
        get: operations["getWebsiteUptime"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{websiteRef}/incidents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Incidents (down periods), newest first */
        get: operations["listWebsiteIncidents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Incidents of every website of the organization, newest first
         * @description An agency-wide view: `open=true` lists what is down now across all customers.
         */
        get: operations["listIncidents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incidentRef}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An incident, with what each region’s first failing check saw */
        get: operations["getIncident"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incidentRef}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What happened, in order
         * @description First failure per region, confirmation, alerts sent (channel and delivery status), acknowledgement, notes, maintenance start and end, recovery per region, resolution; each with its time and who (a person, a token, or `system`). A client user sees neither alerts nor notes that are not public.
         */
        get: operations["getIncidentTimeline"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incidentRef}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Say someone is on it: reminders stop, the channels hear it
         * @description Raises `incident.acknowledged` (Slack with a bot token replies in the incident’s thread, Jira comments on its issue, PagerDuty and Opsgenie acknowledge their alert). Sent again by the same caller, it answers the acknowledgement made and finishes what an interrupted one left; 409 when it is resolved or someone else acknowledged it.
         */
        post: operations["acknowledgeIncident"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incidentRef}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a note to the timeline; a public one is the root cause the status pages show */
        post: operations["addIncidentNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incidentRef}/public-note": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Take the root cause off the status pages (the note stays on the timeline) */
        delete: operations["withdrawIncidentPublicNote"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Everything configured, to keep or to move: as JSON, or the websites as CSV
         * @description `format=webmon-json`: packages, customers, websites with their check configuration, maintenance windows, the websites’ monitors (heartbeats, DNS, port and probe checks, as their create routes take them; credentials named in `secretNames`, a heartbeat’s ping URL left out), notification channels (write-only fields left out, marked `<field>Set`) and status pages, as the API shows each. `format=csv`: one row per website in the columns POST /api/imports {format: "csv"} reads (`customer, name, url, intervalSeconds, timeoutSeconds, method, keyword, keywordMode, expectedStatusCodes, paused`), RFC 4180, cells a spreadsheet would run as formulas prefixed with an apostrophe. `customerId` limits it to one customer. Written as it is read (no Content-Length): a download cut short is not a whole document. An organization has EXPORTS_PER_ORGANIZATION exports under way at once; past it 429 with Retry-After and `reason: exports-per-organization`.
         */
        get: operations["exportConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customers/{id}/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A customer’s monitoring report for a period: uptime, SLA uptime, incidents, response times
         * @description Days in the organization’s timezone, `from` and `to` inclusive, at most 400 days; default the last full calendar month. Per website and for the customer: uptime and SLA uptime (maintenance left out; the formulas are in the report), incidents, total and longest down time, mean time to recovery, checks, p50/p95 response times per month and ISO week, certificate and domain expiry, each incident (marked with the monitor it is of) and the maintenance held, and the same figures of the period before. Under each website, each of its other monitors (heartbeats, DNS, port, ping, UDP, gRPC, WebSocket and mail checks: kind, name and the host it checks) with its uptime, SLA uptime, down time and incidents over the period since it was added, from its own incidents. From rollups, incidents and maintenance windows: the same uptime computation as GET /api/websites/{id}/uptime and the status pages. `format`: json, csv (one row per website and period, and per other monitor for the whole period, RFC 4180) html (the branded page) or pdf (that page printed by headless Chromium on `paper`, A4 or Letter: vector charts, selectable text). A client user reads its own customer’s only.
         */
        get: operations["getCustomerReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customers/{id}/report-mailings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The customer’s reports e-mailed (on schedule or on request): each one’s attempts */
        get: operations["listReportMailings"];
        put?: never;
        /**
         * E-mail the customer’s report now (or again): a period, to its schedule’s recipients or others
         * @description Defaults: the last full month; the schedule’s recipients, else the customer’s notificationEmail; the schedule’s format, else PDF. Sent through the organization’s e-mail channel (or the operator’s SMTP_URL); a failure is retried like a scheduled one. Answers once the first attempt is made. Each recipient is a mail of the organization’s mail budgets (MAIL_PER_ORGANIZATION_PER_HOUR, MAIL_PER_RECIPIENT_PER_HOUR: past either 429 with Retry-After and `reason` `mail-per-organization` or `mail-per-recipient`, nothing sent), and the build counts in REPORTS_PER_ORGANIZATION.
         */
        post: operations["sendReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your organization: its name, timezone and report branding */
        get: operations["getOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change your organization’s name, timezone or report branding */
        patch: operations["updateOrganization"];
        trace?: never;
    };
    "/api/organization/logo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your organization’s logo, as uploaded (base64) */
        get: operations["getOrganizationLogo"];
        /** Upload the logo on your client reports (PNG, JPEG or WebP, base64) */
        put: operations["putOrganizationLogo"];
        post?: never;
        /** Remove the logo from your client reports */
        delete: operations["deleteOrganizationLogo"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import monitors of another tool (or a CSV) as websites: a job with progress
         * @description One import runs at a time per organization (429 with Retry-After and `reason: imports-per-organization` while one runs, or while IMPORTS_PER_ORGANIZATION of its requests are being read, before this one’s body is). Formats: `webmon-json` (our export, GET /api/exports: packages, customers, websites with their checks and maintenance windows, channels without their write-only values, status pages; what the organization has by the same key is left as it is, each thing’s outcome in `report.resources`), `csv` (ours: name, url, customer, intervalSeconds, timeoutSeconds, method, keyword, keywordMode, expectedStatusCodes, paused), `uptimerobot-csv` (UptimeRobot’s export), `uptimerobot-json` (its getMonitors answer), `uptime-kuma` (its backup JSON). HTTP and keyword monitors become websites with their check configuration; ping, port, DNS, push/heartbeat, gRPC, WebSocket and mail-server monitors become checks of the website of their host (one the customer has or this import makes; else the `attachTo` website; a heartbeat: `attachTo`, else the website of its name), each in `report.monitors`; the others are listed with the reason. A website the customer has at the same URL, or a check of the same kind and target on its website, is not made again, so an import can be run again. Answers 202 with the job: poll GET /api/imports/{id}. The body may be up to 16 MiB here.
         */
        post: operations["startImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/imports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An import: where it stands, and what it did with each monitor */
        get: operations["getImport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/maintenance-windows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the maintenance windows of a website */
        get: operations["listMaintenanceWindows"];
        put?: never;
        /**
         * Create a one-off or recurring maintenance window
         * @description endsAt after startsAt, at most 31 days long; timezone is IANA (default UTC); at most 100 windows per website. A recurring window repeats its wall-clock times in its timezone.
         */
        post: operations["createMaintenanceWindow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/maintenance-windows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a maintenance window */
        get: operations["getMaintenanceWindow"];
        put?: never;
        post?: never;
        /** Delete a maintenance window */
        delete: operations["deleteMaintenanceWindow"];
        options?: never;
        head?: never;
        /** Change a maintenance window; the fields sent are merged and the result re-validated */
        patch: operations["updateMaintenanceWindow"];
        trace?: never;
    };
    "/api/maintenance-windows/{id}/occurrences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The occurrences of a window from a time on (a preview of its recurrence)
         * @description Occurrences still running at `from` (default now) or starting after it, in order, at most `limit` (1–100, default 10). Wall-clock times repeat in the window’s timezone across daylight-saving changes.
         */
        get: operations["listMaintenanceOccurrences"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/maintenance-windows/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The next occurrences of a window before it is saved (nothing is stored)
         * @description The same rules as a create (endsAt after startsAt, at most 31 days, byWeekday only weekly, until not before startsAt) and the same recurrence: wall-clock times repeat in the timezone across daylight-saving changes. Answers up to `limit` (1–50, default 5) occurrences still running at `from` (default now) or starting after it.
         */
        post: operations["previewMaintenanceWindow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/maintenance-windows/check/{websiteId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Is a website in maintenance now? */
        get: operations["checkMaintenance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/maintenance-windows/check/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Are these websites in maintenance now? (1–1000, answered in request order)
         * @description An id that is unknown or of another organization answers inMaintenance false with error "not_found". Two queries in all, whatever the number of ids.
         */
        post: operations["checkMaintenanceBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notification-channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the organization’s notification channels */
        get: operations["listNotificationChannels"];
        put?: never;
        /**
         * Create a notification channel
         * @description `config` depends on `type`. Write-only fields (webhook URLs of chat tools, keys, tokens, passwords) are encrypted at rest and never returned. A webhook channel’s signing secret is generated and returned this once.
         */
        post: operations["createNotificationChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notification-channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a notification channel */
        get: operations["getNotificationChannel"];
        put?: never;
        post?: never;
        /** Delete a notification channel (websites listing it stop listing it) */
        delete: operations["deleteNotificationChannel"];
        options?: never;
        head?: never;
        /**
         * Change a notification channel; config fields are merged
         * @description The type cannot change. `scope` sent replaces the scope. Write-only config fields omitted are kept; null clears an optional one.
         */
        patch: operations["updateNotificationChannel"];
        trace?: never;
    };
    "/api/notification-channels/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace a webhook channel’s signing secret
         * @description For 24 hours deliveries carry two signatures (new and old, space separated in webhook-signature), so receivers can switch without losing any.
         */
        post: operations["rotateNotificationChannelSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notification-channels/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event to the channel now
         * @description Answers at once with the delivery; follow it in the delivery log.
         */
        post: operations["testNotificationChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notification-channels/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The channel’s deliveries with every attempt, newest first, in pages */
        get: operations["listNotificationDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notification-channels/{id}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery with every attempt */
        get: operations["getNotificationDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notification-channels/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery again (a new series of attempts) */
        post: operations["redeliverNotification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{websiteRef}/monitors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A website's heartbeats, DNS and port checks, with their status
         * @description A heartbeat’s pingUrl is shown to editors only (null otherwise).
         */
        get: operations["listWebsiteMonitors"];
        put?: never;
        /**
         * Add a monitor of any kind: heartbeat, dns, port, icmp, udp, grpc, websocket, smtp, imap, pop3
         * @description Each kind its own fields (a field it does not know is a 400 naming it), as its own route takes them for heartbeat (…/heartbeats), dns (…/dns-checks) and port (…/port-checks); the host defaults to the website's, an IP literal is judged by the SSRF guard here and every address again at each check. **icmp**: ICMP echo requests (IPv4 or IPv6) to the address the SSRF guard allows, through the system ping. Down when more than maxLossPercent of them are lost (all lost: unreachable); degraded when the average round trip is above maxRttMs. Package feature `icmpChecks`, limit `maxIcmpChecksPerWebsite`. **udp**: One datagram (text or hex) to the address the SSRF guard allows, and the first reply back: down without a reply within the timeout (or on port unreachable), or when it does not hold `expect` ({contains} or an RE2 {matches}; hex payloads are matched as hex digits). Package feature `udpChecks`, limit `maxUdpChecksPerWebsite`. **grpc**: The standard gRPC health check (grpc.health.v1.Health/Check) for `service`, plaintext or TLS, with `metadata`: up on SERVING, down on any other status or a failed call; with TLS the certificate is judged as for HTTPS (not valid: down; expiring within the package’s warning days: degraded). Package feature `grpcChecks`, limit `maxGrpcChecksPerWebsite`. **websocket**: A WebSocket opened as a browser opens it (ws or wss; the certificate judged as for HTTPS), with `headers` and the `subprotocol` the server must choose; then, with `send` or `expect`, a message sent and the first one back read and matched ({contains} or an RE2 {matches}). A token the server takes in the URL goes in `query` and a value the message carries in `secrets` (used as {{secret.NAME}}): sealed, shown as "(set)", blanked in evidence; a credential in the URL itself is refused. Package feature `websocketChecks`, limit `maxWebsocketChecksPerWebsite`. **smtp**: A SMTP server (sending mail) as its clients meet it: the greeting read and judged, STARTTLS or TLS at once as `security` says, the certificate judged as for HTTPS (not valid: down; expiring within the package’s warning days: degraded), the time to each step recorded. Package feature `mailServerChecks`, limit `maxMailServerChecksPerWebsite` (SMTP, IMAP and POP3 together). **imap**: A IMAP server (reading mail) as its clients meet it: the greeting read and judged, STARTTLS or TLS at once as `security` says, the certificate judged as for HTTPS (not valid: down; expiring within the package’s warning days: degraded), the time to each step recorded. Package feature `mailServerChecks`, limit `maxMailServerChecksPerWebsite` (SMTP, IMAP and POP3 together). **pop3**: A POP3 server (collecting mail) as its clients meet it: the greeting read and judged, STARTTLS or TLS at once as `security` says, the certificate judged as for HTTPS (not valid: down; expiring within the package’s warning days: degraded), the time to each step recorded. Package feature `mailServerChecks`, limit `maxMailServerChecksPerWebsite` (SMTP, IMAP and POP3 together).
         */
        post: operations["createMonitor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{websiteRef}/heartbeats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Watch a job that pings: a cron job, a backup, a scheduler
         * @description Down when no success ping arrives within the period (or by the cron expression’s next slot) plus the grace, counted from the last success (from creation before the first). The answer’s pingUrl is the job’s credential. Package feature `heartbeats`, limit `maxHeartbeatsPerWebsite`.
         */
        post: operations["createHeartbeat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/heartbeats/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The next five times a schedule expects a ping (nothing stored) */
        post: operations["previewHeartbeat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{websiteRef}/dns-checks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a DNS record from each region
         * @description `expected`: the values the answer must be (any order), or 'unchanged': the first answer is learned and a different one raises dns.changed with both sets (learned once accepted, or relearnAfterSeconds after the change). NXDOMAIN, SERVFAIL and timeouts are failures with their names. Package feature `dnsChecks`, limit `maxDnsChecksPerWebsite`.
         */
        post: operations["createDnsCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dns-checks/{id}/accept-change": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept a DNS check's changed answer: it is the one held to from now */
        post: operations["acceptDnsChange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/websites/{websiteRef}/port-checks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check that a TCP port answers (SMTP, IMAP, a database, any TLS service)
         * @description A TCP connect through the same address guard as HTTP checks (a private or reserved IP address is refused unless the operator allows it), then a TLS handshake with the certificate checked when `tls`, then the first line read and matched when `expectBanner`. Connect and handshake times recorded. Package feature `portChecks`, limit `maxPortChecksPerWebsite`.
         */
        post: operations["createPortCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/heartbeats/{id}/pings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A heartbeat's latest pings, newest first, with what the job sent */
        get: operations["listHeartbeatPings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/monitors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A monitor of any kind, with where it stands */
        get: operations["getMonitor"];
        put?: never;
        post?: never;
        /** Delete a monitor of any kind (an incident it left open is resolved) */
        delete: operations["deleteMonitor"];
        options?: never;
        head?: never;
        /**
         * Change a monitor of a probe kind: its name, interval, timeout or its kind’s fields
         * @description A heartbeat, DNS or port check takes the fields of its own route (`PATCH /api/heartbeats/{id}`, …), validated as there; a probe kind the fields of its kind. Unknown fields are refused.
         */
        patch: operations["updateMonitor"];
        trace?: never;
    };
    "/api/monitors/{id}/uptime": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A monitor’s uptime, downtime and response times over a period
         * @description As a website’s: the share of the period (from the monitor’s creation, when later) not inside one of its down incidents; null before its first result. `checks` and the response times count its newest 1,000 results of the period at most (a heartbeat: its pings, without response times).
         */
        get: operations["getMonitorUptime"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/monitors/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a check now and answer what it found (a test: not stored, no status moved)
         * @description From the API’s host, through the same address guard and under the check’s own timeout: what the check answers with its settings as stored (DNS, port and every probe kind; a heartbeat waits for pings: 409). The result is not one of a region’s: it is not stored and moves no status; the regions check on schedule. A few run at once per API process; past that 503 with Retry-After.
         */
        post: operations["runMonitor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/monitors/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A monitor's latest results from every region, newest first, with timings and evidence */
        get: operations["listMonitorResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dns-checks/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A DNS check's latest results from every region, newest first */
        get: operations["listDnsCheckResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/port-checks/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A port check's latest results from every region, newest first */
        get: operations["listPortCheckResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/heartbeats/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A heartbeat */
        get: operations["getHeartbeat"];
        put?: never;
        post?: never;
        /** Delete a heartbeat (an incident it left open is resolved) */
        delete: operations["deleteHeartbeat"];
        options?: never;
        head?: never;
        /** Change a heartbeat */
        patch: operations["updateHeartbeat"];
        trace?: never;
    };
    "/api/dns-checks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A DNS check */
        get: operations["getDnsCheck"];
        put?: never;
        post?: never;
        /** Delete a DNS check (an incident it left open is resolved) */
        delete: operations["deleteDnsCheck"];
        options?: never;
        head?: never;
        /** Change a DNS check */
        patch: operations["updateDnsCheck"];
        trace?: never;
    };
    "/api/port-checks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A port check */
        get: operations["getPortCheck"];
        put?: never;
        post?: never;
        /** Delete a port check (an incident it left open is resolved) */
        delete: operations["deletePortCheck"];
        options?: never;
        head?: never;
        /** Change a port check */
        patch: operations["updatePortCheck"];
        trace?: never;
    };
    "/ping/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A heartbeat ping: the run succeeded
         * @description Called by the job a heartbeat watches: `/ping/{token}` says a run succeeded, `/start` that one began (a run longer than the heartbeat's maxRunSeconds alerts), `/fail` or a non-zero exit code (`/ping/{token}/3`) that it failed. GET, HEAD and POST all count; a body of any type (its first 10 KB) is kept as the run's log. The token is the credential: 404 for one we do not know, 429 with Retry-After past 30 pings a minute.
         */
        get: operations["pingGet"];
        put?: never;
        /**
         * A heartbeat ping: the run succeeded
         * @description Called by the job a heartbeat watches: `/ping/{token}` says a run succeeded, `/start` that one began (a run longer than the heartbeat's maxRunSeconds alerts), `/fail` or a non-zero exit code (`/ping/{token}/3`) that it failed. GET, HEAD and POST all count; a body of any type (its first 10 KB) is kept as the run's log. The token is the credential: 404 for one we do not know, 429 with Retry-After past 30 pings a minute.
         */
        post: operations["pingPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ping/{token}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A heartbeat ping: a run started
         * @description Called by the job a heartbeat watches: `/ping/{token}` says a run succeeded, `/start` that one began (a run longer than the heartbeat's maxRunSeconds alerts), `/fail` or a non-zero exit code (`/ping/{token}/3`) that it failed. GET, HEAD and POST all count; a body of any type (its first 10 KB) is kept as the run's log. The token is the credential: 404 for one we do not know, 429 with Retry-After past 30 pings a minute.
         */
        get: operations["pingStartGet"];
        put?: never;
        /**
         * A heartbeat ping: a run started
         * @description Called by the job a heartbeat watches: `/ping/{token}` says a run succeeded, `/start` that one began (a run longer than the heartbeat's maxRunSeconds alerts), `/fail` or a non-zero exit code (`/ping/{token}/3`) that it failed. GET, HEAD and POST all count; a body of any type (its first 10 KB) is kept as the run's log. The token is the credential: 404 for one we do not know, 429 with Retry-After past 30 pings a minute.
         */
        post: operations["pingStartPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ping/{token}/fail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A heartbeat ping: the run failed
         * @description Called by the job a heartbeat watches: `/ping/{token}` says a run succeeded, `/start` that one began (a run longer than the heartbeat's maxRunSeconds alerts), `/fail` or a non-zero exit code (`/ping/{token}/3`) that it failed. GET, HEAD and POST all count; a body of any type (its first 10 KB) is kept as the run's log. The token is the credential: 404 for one we do not know, 429 with Retry-After past 30 pings a minute.
         */
        get: operations["pingFailGet"];
        put?: never;
        /**
         * A heartbeat ping: the run failed
         * @description Called by the job a heartbeat watches: `/ping/{token}` says a run succeeded, `/start` that one began (a run longer than the heartbeat's maxRunSeconds alerts), `/fail` or a non-zero exit code (`/ping/{token}/3`) that it failed. GET, HEAD and POST all count; a body of any type (its first 10 KB) is kept as the run's log. The token is the credential: 404 for one we do not know, 429 with Retry-After past 30 pings a minute.
         */
        post: operations["pingFailPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ping/{token}/{exitCode}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A heartbeat ping with the run’s exit code (0 a success)
         * @description Called by the job a heartbeat watches: `/ping/{token}` says a run succeeded, `/start` that one began (a run longer than the heartbeat's maxRunSeconds alerts), `/fail` or a non-zero exit code (`/ping/{token}/3`) that it failed. GET, HEAD and POST all count; a body of any type (its first 10 KB) is kept as the run's log. The token is the credential: 404 for one we do not know, 429 with Retry-After past 30 pings a minute.
         */
        get: operations["pingExitCodeGet"];
        put?: never;
        /**
         * A heartbeat ping with the run’s exit code (0 a success)
         * @description Called by the job a heartbeat watches: `/ping/{token}` says a run succeeded, `/start` that one began (a run longer than the heartbeat's maxRunSeconds alerts), `/fail` or a non-zero exit code (`/ping/{token}/3`) that it failed. GET, HEAD and POST all count; a body of any type (its first 10 KB) is kept as the run's log. The token is the credential: 404 for one we do not know, 429 with Retry-After past 30 pings a minute.
         */
        post: operations["pingExitCodePost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/monitoring-nodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The active monitoring nodes
         * @description A node is active while it has sent a heartbeat in the last 30 s and is not disabled.
         */
        get: operations["listMonitoringNodes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/monitoring-nodes/firewall.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Addresses to allow in a firewall (public)
         * @description Every enabled node seen in the last 24 hours, sorted and unique. `?format=text` answers one address a line.
         */
        get: operations["getFirewallAllowList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/status-pages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the organization's status pages */
        get: operations["listStatusPages"];
        put?: never;
        /**
         * Create a status page for a customer's websites
         * @description The page is served at /status/{slug} (and /status/{slug}.json) once `public` is true; its websites get badges.
         */
        post: operations["createStatusPage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/status-pages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a status page */
        get: operations["getStatusPage"];
        put?: never;
        post?: never;
        /** Delete a status page */
        delete: operations["deleteStatusPage"];
        options?: never;
        head?: never;
        /** Change a status page; branding is merged */
        patch: operations["updateStatusPage"];
        trace?: never;
    };
    "/status/{slug}.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A public status page’s data (what the HTML page shows)
         * @description An unknown or non-public slug answers 404. The answer carries a strong ETag: If-None-Match with it answers 304 while the page is unchanged.
         */
        get: operations["getStatusPageData"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A public status page (HTML, works without JavaScript)
         * @description An unknown or non-public slug answers 404. The answer carries a strong ETag: If-None-Match with it answers 304 while the page is unchanged.
         */
        get: operations["viewStatusPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/badge/{publicId}/status.svg": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A website’s status as a badge (SVG) */
        get: operations["getStatusBadge"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/badge/{publicId}/monitors.svg": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A website’s heartbeats, DNS and port checks as a badge (SVG): all up, or how many are down */
        get: operations["getMonitorsBadge"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/badge/{publicId}/uptime.svg": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A website’s uptime over a period as a badge (SVG) */
        get: operations["getUptimeBadge"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit log: every write, sign-in and failed sign-in, newest first
         * @description Who (a user or a token), what (action, resource and id, the fields changed with their values before and after; write-only secrets by name only), when and from which address. Kept 400 days. A page holds up to `limit` events; when the filters match few events a page may be short (each request reads at most 1000 events): follow `nextCursor` (also in a `Link: <…>; rel="next"` header) until it is null.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/websites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every website of the organization with status, last check, 24 h uptime and response times
         * @description `limit` websites an answer (100; at most 1,000), each page costing the same however many websites the organization has; `nextAfterId` asks for the next ones. A few answers are made at once per API process: past those, 503 with Retry-After.
         */
        get: operations["getWebsiteOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app (sign in with a session, or paste an API token) */
        get: operations["appPageRoot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /sign-in */
        get: operations["appPageSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accept-invitation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /accept-invitation */
        get: operations["appPageAcceptInvitation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /reset-password */
        get: operations["appPageResetPassword"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /account */
        get: operations["appPageAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /customers */
        get: operations["appPageCustomers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /customers/:id */
        get: operations["appPageCustomersId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers/{id}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /customers/:id/report */
        get: operations["appPageCustomersIdReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/websites/{ref}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /websites/:ref */
        get: operations["appPageWebsitesRef"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/websites/{ref}/edit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /websites/:ref/edit */
        get: operations["appPageWebsitesRefEdit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/maintenance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /maintenance */
        get: operations["appPageMaintenance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /channels */
        get: operations["appPageChannels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/channels/{ref}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /channels/:ref */
        get: operations["appPageChannelsRef"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status-pages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /status-pages */
        get: operations["appPageStatusPages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status-pages/{ref}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /status-pages/:ref */
        get: operations["appPageStatusPagesRef"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/packages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /packages */
        get: operations["appPagePackages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/people": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /people */
        get: operations["appPagePeople"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /audit */
        get: operations["appPageAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /settings */
        get: operations["appPageSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/incidents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /incidents */
        get: operations["appPageIncidents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/incidents/{ref}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /incidents/:ref */
        get: operations["appPageIncidentsRef"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser app at /imports */
        get: operations["appPageImports"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A file of the browser app, named by its content’s hash (cached for a year) */
        get: operations["appAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Problem: {
            /** @description URI of the problem type, e.g. /problems/validation-error */
            type: string;
            title: string;
            status: number;
            detail: string;
            instance?: string;
            requestId?: string;
            /** @description The first 10 bad fields */
            errors?: {
                path: string;
                message: string;
            }[];
            /** @description How many more bad fields `errors` leaves out */
            errorsOmitted?: number;
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "degraded";
            checks: {
                [key: string]: "up" | "down";
            };
            degraded?: {
                [key: string]: string;
            };
        };
        Token: {
            id: number;
            name: string;
            /** @description The first characters of the token, to recognize it */
            prefix: string;
            scopes: components["schemas"]["TokenScope"][];
            /** @description The customer the token is bound to (null: the whole organization) */
            customerId: number | null;
            /** @description A personal token's user: it is never wider than their role, and is revoked when they go or their role narrows below it (null: the organization's) */
            userId: number | null;
            /** Format: date-time */
            createdAt: string;
            lastUsedAt: string | null;
            revokedAt: string | null;
        };
        /** @enum {string} */
        TokenScope: "read" | "write" | "admin";
        CreatedToken: {
            id: number;
            name: string;
            /** @description The first characters of the token, to recognize it */
            prefix: string;
            scopes: components["schemas"]["TokenScope"][];
            /** @description The customer the token is bound to (null: the whole organization) */
            customerId: number | null;
            /** @description A personal token's user: it is never wider than their role, and is revoked when they go or their role narrows below it (null: the organization's) */
            userId: number | null;
            /** Format: date-time */
            createdAt: string;
            lastUsedAt: string | null;
            revokedAt: string | null;
            /** @description The token itself, shown this once only */
            token: string;
        };
        SignedIn: {
            user: components["schemas"]["User"];
        };
        User: {
            id: number;
            email: string;
            name: string;
            role: components["schemas"]["Role"];
            /** @description The customer a `client` sees; null for other roles */
            customerId: number | null;
            /** Format: date-time */
            createdAt: string;
            lastSignInAt: string | null;
            twoFactorEnabled: boolean;
        };
        /** @enum {string} */
        Role: "viewer" | "editor" | "admin" | "owner" | "client";
        Me: components["schemas"]["PersonCaller"] | components["schemas"]["TokenCaller"];
        PersonCaller: {
            /** @constant */
            kind: "person";
            user: components["schemas"]["User"];
            /** @description The caller's organization (its id is the `organizationId` of its resources) */
            organization: {
                id: number;
                name: string;
            };
            /** @description What the caller may do (each scope includes the ones before it): a person's from their role */
            scopes: components["schemas"]["TokenScope"][];
        };
        TokenCaller: {
            /** @constant */
            kind: "token";
            token: {
                id: number;
                name: string;
                /** @description The first characters of the token, to recognize it */
                prefix: string;
                /** @description The customer the token is bound to (null: the whole organization) */
                customerId: number | null;
                /** @description A personal token's user: it is never wider than their role, and is revoked when they go or their role narrows below it (null: the organization's) */
                userId: number | null;
            };
            /** @description The caller's organization (its id is the `organizationId` of its resources) */
            organization: {
                id: number;
                name: string;
            };
            /** @description What the caller may do (each scope includes the ones before it): a person's from their role */
            scopes: components["schemas"]["TokenScope"][];
        };
        Session: {
            /** @description A handle for the session (not the session id, which only its cookie holds) */
            id: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            lastSeenAt: string;
            address: string;
            userAgent: string;
            /** @description The session this request came with */
            current: boolean;
        };
        TwoFactorEnrolment: {
            /** @description The base32 secret to type into an authenticator app; shown once */
            secret: string;
            /** @description The same as an otpauth:// URI, for a QR code */
            otpauthUrl: string;
        };
        RecoveryCodes: {
            /** @description Ten one-time codes that stand in for the app (each works once); shown once */
            recoveryCodes: string[];
        };
        Invitation: {
            id: number;
            email: string;
            role: components["schemas"]["Role"];
            customerId: number | null;
            /**
             * Format: date-time
             * @description The link works until then, once
             */
            expiresAt: string;
        };
        /** @description Taken; the work goes on after the answer */
        Accepted: {
            /** @constant */
            status: "accepted";
        };
        Package: {
            id: number;
            organizationId: number;
            key: string;
            displayName: string;
            features: components["schemas"]["PackageFeatures"];
            limits: components["schemas"]["PackageLimits"];
            alerting: components["schemas"]["PackageAlerting"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        PackageFeatures: {
            sslCheck: boolean;
            httpsRedirectCheck: boolean;
            statusCheck: boolean;
            sizeCheck: boolean;
            responseTimeCheck: boolean;
            keywordCheck: boolean;
            domainExpiryCheck: boolean;
            mtls: boolean;
            multiRegion: boolean;
            assertions: boolean;
            reports: boolean;
            heartbeats: boolean;
            dnsChecks: boolean;
            portChecks: boolean;
            icmpChecks: boolean;
            udpChecks: boolean;
            grpcChecks: boolean;
            websocketChecks: boolean;
            mailServerChecks: boolean;
        };
        PackageLimits: {
            /** @description Websites per customer */
            maxWebsites: number;
            minCheckIntervalSeconds: number;
            resultRetentionDays: number;
            maxHeartbeatsPerWebsite: number;
            maxDnsChecksPerWebsite: number;
            maxPortChecksPerWebsite: number;
            maxIcmpChecksPerWebsite: number;
            maxUdpChecksPerWebsite: number;
            maxGrpcChecksPerWebsite: number;
            maxWebsocketChecksPerWebsite: number;
            /** @description SMTP, IMAP and POP3 checks together */
            maxMailServerChecksPerWebsite: number;
        };
        PackageAlerting: {
            /** @description Consecutive failed checks before down */
            confirmations: number;
            recoveryConfirmations: number;
            responseTimeThresholdMs: number;
            sslExpiryWarningDays: number;
            domainExpiryWarningDays: number;
            /** @description 0: no reminders */
            reminderIntervalMinutes: number;
            /** @description Regions that must agree before down */
            regionQuorum: number;
        };
        Customer: {
            id: number;
            organizationId: number;
            name: string;
            email?: string;
            packageId: number;
            packageDisplayName: string;
            status: components["schemas"]["CustomerStatus"];
            cancellationDate: string | null;
            notificationEmail?: string;
            /** @description The cover line of its reports; absent when unset */
            reportIntro?: string;
            /** @description When its report is e-mailed; absent: never set */
            reportSchedule?: components["schemas"]["ReportSchedule"];
            /** Format: date-time */
            createdAt: string;
        };
        /** @enum {string} */
        CustomerStatus: "active" | "marked_for_cancellation" | "cancelled";
        ReportSchedule: {
            /**
             * @description monthly: the last calendar month; weekly: the last ISO week (Monday to Sunday)
             * @enum {string}
             */
            frequency: "monthly" | "weekly" | "off";
            /**
             * @description Empty: the customer’s notificationEmail
             * @default []
             */
            recipients: string[];
            /**
             * @description What is attached
             * @default pdf
             * @enum {string}
             */
            format: "pdf" | "html" | "both";
            /**
             * @description monthly: the day it is sent
             * @default 1
             */
            dayOfMonth: number;
            /**
             * @description weekly: the day it is sent
             * @default MO
             * @enum {string}
             */
            weekday: "MO" | "TU" | "WE" | "TH" | "FR" | "SA" | "SU";
            /**
             * @description The hour it is sent, in the organization’s timezone
             * @default 6
             */
            hour: number;
        };
        AutomationCreatedCustomer: {
            /** @description The customer id, as a string */
            id: string;
            status: components["schemas"]["CustomerStatus"];
        };
        Website: {
            id: number;
            /** Format: uuid */
            publicId: string;
            organizationId: number;
            customerId: number;
            name: string;
            url: string;
            httpMethod: components["schemas"]["HttpMethod"];
            /** @description The headers sent in clear */
            customHeaders: {
                [key: string]: string;
            };
            /** @description Headers sent with each check whose values are sealed */
            secretHeaderNames: string[];
            /** @description null also while requestBodySecret is true */
            requestBody: string | null;
            requestBodySecret: boolean;
            followRedirects: boolean;
            maxRedirects: number;
            cookieHandling: components["schemas"]["CookieHandling"];
            mtlsEnabled: boolean;
            mtlsClientCert: string | null;
            /** @description Whether a client key is stored (the key itself is never returned) */
            mtlsClientKeySet: boolean;
            checkInterval: number;
            timeoutSeconds: number;
            regions: string[];
            paused: boolean;
            notificationChannelIds: number[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /** @enum {string} */
        HttpMethod: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
        /** @enum {string} */
        CookieHandling: "jar" | "none";
        WebsiteBatchResult: {
            dryRun: boolean;
            created: number;
            invalid: number;
            items: {
                index: number;
                /**
                 * @description valid: it would be created (a dry run)
                 * @enum {string}
                 */
                status: "created" | "valid" | "invalid";
                website: components["schemas"]["Website"] | null;
                errors: {
                    path: string;
                    message: string;
                }[];
            }[];
        };
        ListedWebsite: {
            id: number;
            /** Format: uuid */
            publicId: string;
            organizationId: number;
            customerId: number;
            name: string;
            url: string;
            httpMethod: components["schemas"]["HttpMethod"];
            /** @description The headers sent in clear */
            customHeaders: {
                [key: string]: string;
            };
            /** @description Headers sent with each check whose values are sealed */
            secretHeaderNames: string[];
            /** @description null also while requestBodySecret is true */
            requestBody: string | null;
            requestBodySecret: boolean;
            followRedirects: boolean;
            maxRedirects: number;
            cookieHandling: components["schemas"]["CookieHandling"];
            mtlsEnabled: boolean;
            mtlsClientCert: string | null;
            /** @description Whether a client key is stored (the key itself is never returned) */
            mtlsClientKeySet: boolean;
            checkInterval: number;
            timeoutSeconds: number;
            regions: string[];
            paused: boolean;
            notificationChannelIds: number[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /**
             * @description As GET …/status reports it
             * @enum {string}
             */
            status: "unknown" | "up" | "degraded" | "down" | "maintenance" | "paused" | "cancelled" | "unmonitored";
            lastCheckedAt: string | null;
        };
        WebsiteSummary: {
            id: number;
            /** Format: uuid */
            publicId: string;
            organizationId: number;
            customerId: number;
            name: string;
            url: string;
            /**
             * @description As GET …/status reports it
             * @enum {string}
             */
            status: "unknown" | "up" | "degraded" | "down" | "maintenance" | "paused" | "cancelled" | "unmonitored";
            lastCheckedAt: string | null;
        };
        CheckConfig: {
            websiteId: number;
            checkSslEnabled: boolean;
            checkHttpsRedirectEnabled: boolean;
            checkStatusEnabled: boolean;
            checkSizeEnabled: boolean;
            checkResponseTimeEnabled: boolean;
            checkKeywordEnabled: boolean;
            checkDomainExpiryEnabled: boolean;
            /** @description Smallest acceptable decoded body, in bytes */
            minPageSize: number | null;
            /** @description Largest acceptable decoded body, in bytes */
            maxPageSize: number | null;
            /** @description Codes or ranges, e.g. ["200-299", "304"] */
            expectedStatusCodes: string[];
            /** @description The threshold in force (the package default unless set) */
            responseTimeThresholdMs: number;
            keyword: string | null;
            /** @enum {string} */
            keywordMode: "present" | "absent";
            keywordCaseSensitive: boolean;
            /** @description Conditions on the answer; all must hold */
            assertions: {
                /**
                 * @description What is tested
                 * @enum {string}
                 */
                source: "jsonBody" | "header" | "body" | "status" | "responseTime";
                /** @description jsonBody: an RFC 9535 JSONPath (its first node is tested); header: the header name */
                path?: string;
                /** @enum {string} */
                operator: "equals" | "notEquals" | "contains" | "notContains" | "matches" | "lessThan" | "greaterThan" | "exists" | "notExists";
                /** @description What the actual value is compared with (not for exists/notExists); matches: an RE2 pattern */
                value?: string | number | boolean;
            }[];
        };
        WebsiteStatus: {
            websiteId: number;
            /** @enum {string} */
            status: "unknown" | "up" | "degraded" | "down" | "maintenance" | "paused" | "cancelled" | "unmonitored";
            since: string | null;
            lastCheckedAt: string | null;
            unmonitored: {
                /** Format: date-time */
                since: string;
                reason: string;
            } | null;
            regions: {
                [key: string]: {
                    /** @enum {string} */
                    status: "up" | "degraded" | "down";
                    lastCheckedAt: string | null;
                    fresh: boolean;
                    consecutiveDown: number;
                    consecutiveUp: number;
                };
            };
            openIncidentId: string | null;
            /** @description Its heartbeats, DNS and port checks: each one's health while the website is checked, else the website's status */
            monitors: {
                /** @enum {string} */
                kind: "heartbeat" | "dns" | "port" | "icmp" | "udp" | "grpc" | "websocket" | "smtp" | "imap" | "pop3";
                id: number;
                name: string;
                /** @enum {string} */
                status: "unknown" | "up" | "degraded" | "down" | "maintenance" | "paused" | "cancelled" | "unmonitored";
            }[];
        };
        ResultPage: {
            items: (components["schemas"]["Result"] | components["schemas"]["MonitorCheckResult"])[];
            nextCursor: string | null;
        };
        Result: {
            /** @description The result’s id (for its evidence) */
            id: string;
            websiteId: number;
            /**
             * @description The monitor that made it: the website's HTTP check (DNS and port checks have results of their own)
             * @constant
             */
            kind: "http";
            /** @description For an HTTP result, the website */
            monitorId: number;
            region: string;
            nodeId: string;
            /** Format: date-time */
            startedAt: string;
            /** @enum {string} */
            status: "up" | "degraded" | "down";
            inMaintenance: boolean;
            httpStatus: number | null;
            sizeBytes: number | null;
            /** @description The body was longer than the probe reads (the page-size cap, at least 10 MiB): sizeBytes is a lower bound */
            truncated: boolean;
            timings: {
                dns: number;
                connect: number;
                tls: number;
                ttfb: number;
                download: number;
                total: number;
            };
            /** @description The requests that answered with a redirect, in order; the last request is the result’s own */
            redirects: {
                url: string;
                status: number;
                /** @description This request’s phases in ms (the result’s `timings` add up every request) */
                timings?: {
                    dns: number;
                    connect: number;
                    tls: number;
                    ttfb: number;
                };
            }[];
            error: {
                code: string;
                message: string;
            } | null;
            checks: {
                name: string;
                /** @enum {string} */
                outcome: "pass" | "warn" | "fail" | "skipped";
                message: string;
                value: number | string | null;
                /** @description The assertions check: each verdict */
                assertions?: {
                    /** @enum {string} */
                    source: "jsonBody" | "header" | "body" | "status" | "responseTime";
                    path?: string;
                    /** @enum {string} */
                    operator: "equals" | "notEquals" | "contains" | "notContains" | "matches" | "lessThan" | "greaterThan" | "exists" | "notExists";
                    value?: string | number | boolean;
                    passed: boolean;
                    actual: string | null;
                    problem?: string;
                }[];
            }[];
            ssl: {
                /** Format: date-time */
                validTo: string;
                daysLeft: number;
                issuer: string;
                subject: string;
                valid: boolean;
            } | null;
            /** @description A failing result keeps what it saw: GET …/results/{resultRef}/evidence */
            hasEvidence: boolean;
        };
        MonitorCheckResult: {
            /** @enum {string} */
            kind: "dns" | "port" | "icmp" | "udp" | "grpc" | "websocket" | "smtp" | "imap" | "pop3";
            /** @description The monitor (GET /api/monitors/{id}) */
            monitorId: number;
            region: string;
            /** Format: date-time */
            startedAt: string;
            /** @enum {string} */
            status: "up" | "degraded" | "down";
            /** @description What failed, in words */
            cause: string | null;
            durationMs: number;
            address: string | null;
            timings: {
                [key: string]: number | null;
            };
            /** @description What it saw (a reply, a greeting, a certificate), bounded */
            evidence: {
                [key: string]: unknown;
            };
        };
        /** @description What a failing check saw: the answer, or why there was none */
        Evidence: {
            /**
             * Format: date-time
             * @description When the failing check started
             */
            at: string;
            region: string;
            /** @description The monitoring node that made the check */
            nodeId: string | null;
            /** @description The URL checked (without credentials) */
            url: string;
            /** @description Where the redirects ended */
            finalUrl: string;
            /** @description The answer’s status, e.g. "503 Service Unavailable"; null without one */
            statusLine: string | null;
            /** @description The answer’s headers, names lower-cased; cookies, credentials and the website’s secret headers redacted */
            headers: {
                [key: string]: string;
            };
            /** @description Null when no answer came */
            body: ({
                /** @constant */
                kind: "text";
                /** @description The first 16 KB, decoded by the declared charset (UTF-8 without one) */
                text: string;
                charset: string;
                /** @description Bytes of the body (decoded from its content coding) */
                bytes: number;
                /** @description The text is cut: the body is longer */
                truncated: boolean;
            } | {
                /** @constant */
                kind: "binary";
                contentType: string;
                bytes: number;
            } | {
                /** @constant */
                kind: "omitted";
                bytes: number;
                /** @description Why the body is not kept (one a website, region and 5 minutes) */
                reason: string;
            }) | null;
            /** @description The address the last request went to */
            address: string | null;
            /** @description Each redirect followed: where, its status and where it sent */
            redirects: {
                url: string;
                status: number;
                location: string;
            }[];
            tls: {
                issuer: string;
                subject: string;
                /** Format: date-time */
                validFrom: string;
                /** Format: date-time */
                validTo: string;
                chainTrusted: boolean;
                chainError: string | null;
                hostnameMatches: boolean;
                /** @description e.g. TLSv1.3 */
                protocol: string | null;
                /** @description e.g. TLS_AES_256_GCM_SHA384 */
                cipher: string | null;
            } | null;
            /** @description Why no answer came (DNS, CONNECT, TLS, TIMEOUT …) */
            error: {
                code: string;
                message: string;
            } | null;
            timings: {
                dns: number;
                connect: number;
                tls: number;
                ttfb: number;
                download: number;
                total: number;
            };
        };
        Uptime: {
            period: string;
            uptimePercent: number | null;
            checks: number;
            downtimeSeconds: number;
            responseTimeMs: {
                p50: number | null;
                p95: number | null;
                p99: number | null;
            };
        };
        IncidentList: {
            items: components["schemas"]["Incident"][];
        };
        Incident: {
            id: string;
            websiteId: number;
            /** Format: date-time */
            startedAt: string;
            resolvedAt: string | null;
            cause: string;
            regions: string[];
            /** @description The website’s other monitor (heartbeat, DNS, port, ping …) the incident is of; null: its HTTP check */
            monitor: components["schemas"]["IncidentMonitor"] | null;
            /** @description Someone is on it: reminders stop */
            acknowledgement: {
                /** Format: date-time */
                at: string;
                by: components["schemas"]["IncidentActor"];
                note: string | null;
            } | null;
            /** @description The root cause the status pages show */
            publicNote: {
                text: string;
                /** Format: date-time */
                at: string;
            } | null;
        };
        IncidentMonitor: {
            /** @enum {string} */
            kind: "heartbeat" | "dns" | "port" | "icmp" | "udp" | "grpc" | "websocket" | "smtp" | "imap" | "pop3";
            id: number;
        };
        IncidentActor: {
            /** @enum {string} */
            type: "system" | "user" | "token";
            id: number | null;
            name: string;
        };
        IncidentDetail: {
            id: string;
            websiteId: number;
            /** Format: date-time */
            startedAt: string;
            resolvedAt: string | null;
            cause: string;
            regions: string[];
            /** @description The website’s other monitor (heartbeat, DNS, port, ping …) the incident is of; null: its HTTP check */
            monitor: components["schemas"]["IncidentMonitor"] | null;
            /** @description Someone is on it: reminders stop */
            acknowledgement: {
                /** Format: date-time */
                at: string;
                by: components["schemas"]["IncidentActor"];
                note: string | null;
            } | null;
            /** @description The root cause the status pages show */
            publicNote: {
                text: string;
                /** Format: date-time */
                at: string;
            } | null;
            /** @description Null when the website was deleted since */
            website: {
                id: number;
                name: string;
                url: string;
            } | null;
            /** @description Each region down when it opened: its first failing result and what it saw */
            firstFailures: {
                region: string;
                /** Format: date-time */
                at: string;
                resultId: string | null;
                /** @description What the region’s first failing check saw */
                evidence: components["schemas"]["Evidence"] | null;
            }[];
        };
        IncidentTimeline: {
            items: components["schemas"]["IncidentTimelineItem"][];
        };
        IncidentTimelineItem: {
            /** Format: date-time */
            at: string;
            /** @enum {string} */
            kind: "failure" | "confirmed" | "alert" | "acknowledged" | "note" | "maintenance.started" | "maintenance.ended" | "recovery" | "resolved";
            by: components["schemas"]["IncidentActor"];
            region: string | null;
            text: string | null;
            public?: boolean;
            resultId?: string | null;
            alert?: {
                channelId: number;
                channelName: string;
                channelType: string;
                eventType: string;
                /** @enum {string} */
                status: "succeeded" | "failed";
            };
        };
        Export: {
            /** @constant */
            format: "webmon";
            /** @constant */
            version: 1;
            /** Format: date-time */
            exportedAt: string;
            /** @description The customer it is limited to; null: the organization */
            customerId: number | null;
            packages: components["schemas"]["Package"][];
            customers: components["schemas"]["Customer"][];
            websites: {
                id: number;
                /** Format: uuid */
                publicId: string;
                organizationId: number;
                customerId: number;
                name: string;
                url: string;
                httpMethod: components["schemas"]["HttpMethod"];
                /** @description The headers sent in clear */
                customHeaders: {
                    [key: string]: string;
                };
                /** @description Headers sent with each check whose values are sealed */
                secretHeaderNames: string[];
                /** @description null also while requestBodySecret is true */
                requestBody: string | null;
                requestBodySecret: boolean;
                followRedirects: boolean;
                maxRedirects: number;
                cookieHandling: components["schemas"]["CookieHandling"];
                mtlsEnabled: boolean;
                mtlsClientCert: string | null;
                /** @description Whether a client key is stored (the key itself is never returned) */
                mtlsClientKeySet: boolean;
                checkInterval: number;
                timeoutSeconds: number;
                regions: string[];
                paused: boolean;
                notificationChannelIds: number[];
                /** Format: date-time */
                createdAt: string;
                /** Format: date-time */
                updatedAt: string;
                checkConfig: components["schemas"]["CheckConfig"];
            }[];
            maintenanceWindows: components["schemas"]["MaintenanceWindow"][];
            /**
             * @description The websites' heartbeats, DNS, port and probe checks (an export made before they were carried has none)
             * @default []
             */
            monitors: components["schemas"]["ExportedMonitor"][];
            /** @description Write-only fields are not exported: each shows as `<field>Set: true|false` */
            channels: components["schemas"]["Channel"][];
            statusPages: components["schemas"]["StatusPage"][];
        };
        MaintenanceWindow: {
            id: number;
            websiteId: number;
            title: string;
            /** Format: date-time */
            startsAt: string;
            /** Format: date-time */
            endsAt: string;
            timezone: string;
            recurrence: components["schemas"]["Recurrence"] | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        Recurrence: {
            /** @enum {string} */
            frequency: "daily" | "weekly" | "monthly";
            interval: number;
            byWeekday?: ("MO" | "TU" | "WE" | "TH" | "FR" | "SA" | "SU")[];
            /** Format: date-time */
            until?: string;
        };
        /** @description A heartbeat, DNS, port or probe check of a website: the fields its create route takes; credentials (a WebSocket’s Authorization header, gRPC metadata keys) are named in `secretNames`, never exported; a heartbeat’s ping URL is not exported */
        ExportedMonitor: components["schemas"]["ExportedHeartbeatMonitor"] | components["schemas"]["ExportedDnsMonitor"] | components["schemas"]["ExportedPortMonitor"] | components["schemas"]["ExportedIcmpMonitor"] | components["schemas"]["ExportedUdpMonitor"] | components["schemas"]["ExportedGrpcMonitor"] | components["schemas"]["ExportedWebsocketMonitor"] | components["schemas"]["ExportedSmtpMonitor"] | components["schemas"]["ExportedImapMonitor"] | components["schemas"]["ExportedPop3Monitor"];
        ExportedHeartbeatMonitor: {
            name: string;
            schedule: components["schemas"]["HeartbeatSchedule"];
            /**
             * @description How late a ping may be before it is missed
             * @default 300
             */
            graceSeconds: number;
            /**
             * @description A run started with /start and not finished within this is late (null: no bound)
             * @default null
             */
            maxRunSeconds: number | null;
            /** @constant */
            kind: "heartbeat";
            id: number;
            websiteId: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        HeartbeatSchedule: {
            /** @description The job pings every this many seconds */
            periodSeconds: number;
        } | {
            /** @description Five fields, e.g. "30 2 * * *" */
            cron: string;
            /**
             * @description The cron expression is read in it
             * @default UTC
             */
            timezone: string;
        };
        ExportedDnsMonitor: {
            name: string;
            /** @enum {string} */
            recordType: "A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS" | "CAA";
            /** @description The name to look up (default: the website's host) */
            host?: string;
            /** @description The values the answer must be (in any order), or 'unchanged': the first answer is learned and a change raises dns.changed */
            expected: "unchanged" | string[];
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 5
             */
            timeoutSeconds: number;
            /**
             * @description With 'unchanged': a changed answer not acknowledged is learned this long after the change
             * @default 86400
             */
            relearnAfterSeconds: number;
            /** @constant */
            kind: "dns";
            id: number;
            websiteId: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ExportedPortMonitor: {
            name: string;
            /** @description Where to connect (default: the website's host) */
            host?: string;
            port: number;
            /**
             * @description A TLS handshake after connecting; the certificate is checked like HTTPS
             * @default false
             */
            tls: boolean;
            /**
             * @description The first line the server sends must start with this (e.g. "220" for SMTP)
             * @default null
             */
            expectBanner: string | null;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @constant */
            kind: "port";
            id: number;
            websiteId: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ExportedIcmpMonitor: {
            /** @constant */
            kind: "icmp";
            name: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @description What to ping (default: the website's host) */
            host?: string;
            /**
             * @description Echo requests sent each check
             * @default 3
             */
            count: number;
            /**
             * @description Lost replies above this share are down
             * @default 0
             */
            maxLossPercent: number;
            /**
             * @description An average round trip above this is degraded (null: not judged)
             * @default null
             */
            maxRttMs: number | null;
            id: number;
            websiteId: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ExportedUdpMonitor: {
            /** @constant */
            kind: "udp";
            name: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @description Where to send (default: the website's host) */
            host?: string;
            port: number;
            /**
             * @description The datagram sent, as text or as hex digits
             * @default
             */
            payload: string;
            /**
             * @default text
             * @enum {string}
             */
            payloadEncoding: "text" | "hex";
            /**
             * @description What the reply must hold: {contains: text} or {matches: RE2 pattern}; null: any reply
             * @default null
             */
            expect: (components["schemas"]["ReplyContains"] | components["schemas"]["ReplyMatches"]) | null;
            id: number;
            websiteId: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ReplyContains: {
            contains: string;
        };
        ReplyMatches: {
            matches: string;
        };
        ExportedGrpcMonitor: {
            /** @constant */
            kind: "grpc";
            name: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @description The gRPC server (default: the website's host) */
            host?: string;
            port: number;
            /**
             * @description TLS (the certificate checked as for HTTPS); false: plaintext HTTP/2
             * @default false
             */
            tls: boolean;
            /**
             * @description The service asked about ('' : the server as a whole)
             * @default
             */
            service: string;
            /**
             * @description Sent with the call (e.g. an API key header)
             * @default {}
             */
            metadata: {
                [key: string]: string;
            };
            id: number;
            websiteId: number;
            /** @description The credentials of each record, by name: write-only, not exported */
            secretNames: {
                metadata: string[];
            };
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ExportedWebsocketMonitor: {
            /** @constant */
            kind: "websocket";
            name: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /**
             * Format: uri
             * @description ws:// or wss:// address
             */
            url: string;
            /**
             * @description Query parameters added to the URL (where WebSocket servers take a token: browsers cannot send headers); credential names (token, key, auth, secret…) are sealed and shown as "(set)"
             * @default {}
             */
            query: {
                [key: string]: string;
            };
            /**
             * @description Values `send`, `headers` and `query` use as {{secret.NAME}} (a message that logs in, say): sealed when written, shown as "(set)", blanked in evidence
             * @default {}
             */
            secrets: {
                [key: string]: string;
            };
            /**
             * @description Sent with the upgrade request (credential headers are shown as "(set)")
             * @default {}
             */
            headers: {
                [key: string]: string;
            };
            /**
             * @description Asked for; the server must choose it
             * @default null
             */
            subprotocol: string | null;
            /**
             * @description A text message sent once open
             * @default null
             */
            send: string | null;
            /**
             * @description What the reply must hold: {contains: text} or {matches: RE2 pattern}; null: any reply
             * @default null
             */
            expect: (components["schemas"]["ReplyContains"] | components["schemas"]["ReplyMatches"]) | null;
            id: number;
            websiteId: number;
            /** @description The credentials of each record, by name: write-only, not exported */
            secretNames: {
                headers: string[];
                query: string[];
                secrets: string[];
            };
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ExportedSmtpMonitor: {
            /** @constant */
            kind: "smtp";
            name: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @description The mail server (default: the website's host) */
            host?: string;
            /** @description Default: the protocol’s port for the security chosen (SMTP 587/465/25, IMAP 143/993, POP3 110/995) */
            port?: number;
            /**
             * @description starttls: greeting in clear, then upgraded; tls: TLS at once; none: clear only
             * @default starttls
             * @enum {string}
             */
            security: "starttls" | "tls" | "none";
            id: number;
            websiteId: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ExportedImapMonitor: {
            /** @constant */
            kind: "imap";
            name: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @description The mail server (default: the website's host) */
            host?: string;
            /** @description Default: the protocol’s port for the security chosen (SMTP 587/465/25, IMAP 143/993, POP3 110/995) */
            port?: number;
            /**
             * @description starttls: greeting in clear, then upgraded; tls: TLS at once; none: clear only
             * @default starttls
             * @enum {string}
             */
            security: "starttls" | "tls" | "none";
            id: number;
            websiteId: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ExportedPop3Monitor: {
            /** @constant */
            kind: "pop3";
            name: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @description The mail server (default: the website's host) */
            host?: string;
            /** @description Default: the protocol’s port for the security chosen (SMTP 587/465/25, IMAP 143/993, POP3 110/995) */
            port?: number;
            /**
             * @description starttls: greeting in clear, then upgraded; tls: TLS at once; none: clear only
             * @default starttls
             * @enum {string}
             */
            security: "starttls" | "tls" | "none";
            id: number;
            websiteId: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        Channel: {
            id: number;
            organizationId: number;
            type: components["schemas"]["ChannelType"];
            name: string;
            enabled: boolean;
            events: components["schemas"]["EventKind"][];
            scope: components["schemas"]["ChannelScope"];
            /** @description The type’s config; each write-only field shows as <field>Set: true|false instead */
            config: {
                [key: string]: string | number | boolean | string[] | null;
            };
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /** @enum {string} */
        ChannelType: "webhook" | "slack" | "teams" | "discord" | "pagerduty" | "opsgenie" | "jira" | "email";
        /** @enum {string} */
        EventKind: "website.down" | "website.up" | "website.degraded" | "website.unmonitored" | "website.monitored" | "ssl.expiring" | "ssl.invalid" | "domain.expiring" | "maintenance.started" | "maintenance.ended" | "incident.acknowledged" | "heartbeat.down" | "heartbeat.up" | "dns.down" | "dns.up" | "dns.changed" | "port.down" | "port.up" | "icmp.down" | "icmp.up" | "udp.down" | "udp.up" | "grpc.down" | "grpc.up" | "websocket.down" | "websocket.up" | "smtp.down" | "smtp.up" | "imap.down" | "imap.up" | "pop3.down" | "pop3.up" | "test";
        ChannelScope: {
            customerId?: number;
            listedOnly: boolean;
        };
        StatusPage: {
            id: number;
            organizationId: number;
            slug: string;
            title: string;
            customerId: number;
            websiteIds: number[] | null;
            branding: {
                logoUrl: string | null;
                accentColor: string | null;
                footerText: string | null;
            };
            public: boolean;
            showResponseTimes: boolean;
            embedAllowedOrigins: string[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ClientReport: {
            organization: {
                name: string;
            };
            customer: {
                id: number;
                name: string;
            };
            period: {
                /** @description First day, inclusive (yyyy-MM-dd) */
                from: string;
                /** @description Last day, inclusive */
                to: string;
                timezone: string;
                days: number;
            };
            previousPeriod: {
                from: string;
                to: string;
            };
            /** Format: date-time */
            generatedAt: string;
            /** @description How each figure is computed */
            formulas: {
                [key: string]: string;
            };
            totals: {
                /** @description null: not monitored in the period */
                uptimePercent: number | null;
                /** @description Maintenance time left out */
                slaUptimePercent: number | null;
                monitoredSeconds: number;
                downtimeSeconds: number;
                maintenanceSeconds: number;
                /** @description Down time outside maintenance */
                slaDowntimeSeconds: number;
                incidents: number;
                longestIncidentSeconds: number;
                /** @description Mean time to recovery; null: none resolved */
                mttrSeconds: number | null;
                checks: number;
                responseTimeMs: {
                    p50: number | null;
                    p95: number | null;
                };
                previous: components["schemas"]["ReportFigures"];
                change: {
                    uptimePercent: number | null;
                    slaUptimePercent: number | null;
                    incidents: number;
                    downtimeSeconds: number;
                };
            };
            websites: {
                id: number;
                name: string;
                url: string;
                figures: components["schemas"]["ReportFigures"];
                previous: components["schemas"]["ReportFigures"];
                months: {
                    month: string;
                    from: string;
                    to: string;
                    figures: components["schemas"]["ReportFigures"];
                }[];
                weeks: {
                    week: string;
                    from: string;
                    to: string;
                    figures: components["schemas"]["ReportFigures"];
                }[];
                certificateExpiresAt: string | null;
                domainExpiresAt: string | null;
                /** @description Its other monitors (heartbeats, DNS, port, ping … checks), each with its own figures */
                monitors: components["schemas"]["ReportMonitor"][];
                incidents: {
                    id: string;
                    /** @description The other monitor the incident is of; null: the website’s HTTP check */
                    monitor: components["schemas"]["ReportIncidentMonitor"] | null;
                    /** Format: date-time */
                    startedAt: string;
                    resolvedAt: string | null;
                    /** @description Until now while it is open */
                    durationSeconds: number;
                    cause: string;
                    regions: string[];
                    publicNote: string | null;
                }[];
                maintenance: {
                    title: string;
                    /** Format: date-time */
                    startsAt: string;
                    /** Format: date-time */
                    endsAt: string;
                }[];
            }[];
        };
        ReportFigures: {
            /** @description null: not monitored in the period */
            uptimePercent: number | null;
            /** @description Maintenance time left out */
            slaUptimePercent: number | null;
            monitoredSeconds: number;
            downtimeSeconds: number;
            maintenanceSeconds: number;
            /** @description Down time outside maintenance */
            slaDowntimeSeconds: number;
            incidents: number;
            longestIncidentSeconds: number;
            /** @description Mean time to recovery; null: none resolved */
            mttrSeconds: number | null;
            checks: number;
            responseTimeMs: {
                p50: number | null;
                p95: number | null;
            };
        };
        ReportMonitor: {
            id: number;
            /** @enum {string} */
            kind: "heartbeat" | "dns" | "port" | "icmp" | "udp" | "grpc" | "websocket" | "smtp" | "imap" | "pop3";
            name: string;
            /** @description The host it checks; null: none (a heartbeat: its job pings) */
            target: string | null;
            figures: components["schemas"]["ReportMonitorFigures"];
        };
        /** @description From its own incidents, over the period since it was added */
        ReportMonitorFigures: {
            /** @description null: not monitored in the period */
            uptimePercent: number | null;
            /** @description Maintenance time left out */
            slaUptimePercent: number | null;
            monitoredSeconds: number;
            downtimeSeconds: number;
            maintenanceSeconds: number;
            /** @description Down time outside maintenance */
            slaDowntimeSeconds: number;
            incidents: number;
            longestIncidentSeconds: number;
            /** @description Mean time to recovery; null: none resolved */
            mttrSeconds: number | null;
        };
        ReportIncidentMonitor: {
            id: number;
            /** @enum {string} */
            kind: "heartbeat" | "dns" | "port" | "icmp" | "udp" | "grpc" | "websocket" | "smtp" | "imap" | "pop3";
            name: string;
        };
        ReportMailing: {
            id: string;
            customerId: number;
            period: {
                from: string;
                to: string;
            };
            recipients: string[];
            /** @enum {string} */
            format: "pdf" | "html" | "both";
            /** @enum {string} */
            trigger: "schedule" | "resend";
            /** @enum {string} */
            status: "sending" | "sent" | "retrying" | "failed";
            attempts: {
                /** Format: date-time */
                at: string;
                error: string | null;
            }[];
            nextAttemptAt: string | null;
            /** Format: date-time */
            createdAt: string;
            sentAt: string | null;
        };
        Organization: {
            id: number;
            name: string;
            /** @description Reports’ days and schedules are in it */
            timezone: string;
            branding: {
                accentColor: string | null;
                footerText: string | null;
                /** @description GET /api/organization/logo serves it */
                logo: {
                    /** @enum {string} */
                    contentType: "image/png" | "image/jpeg" | "image/webp";
                    sha256: string;
                } | null;
            };
        };
        Logo: {
            /** @enum {string} */
            contentType: "image/png" | "image/jpeg" | "image/webp";
            data: string;
            sha256: string;
        };
        Import: {
            id: number;
            /** @enum {string} */
            format: "webmon-json" | "csv" | "uptimerobot-csv" | "uptimerobot-json" | "uptime-kuma";
            dryRun: boolean;
            /** @enum {string} */
            status: "running" | "succeeded" | "failed";
            /** @description Monitors gone through */
            progress: {
                done: number;
                total: number;
            };
            report: {
                created: {
                    source: string;
                    name: string;
                    url: string;
                    websiteId: number;
                    publicId: string;
                }[];
                /** @description A dry run: what would be created */
                wouldCreate: {
                    source: string;
                    name: string;
                    url: string;
                }[];
                /** @description The customer has a website with this URL already (null: twice in this source) */
                duplicates: {
                    source: string;
                    name: string;
                    url: string;
                    websiteId: number | null;
                }[];
                unsupported: {
                    source: string;
                    name: string;
                    url: string;
                    sourceType: string;
                    reason: string;
                }[];
                invalid: {
                    source: string;
                    name: string;
                    url: string;
                    errors: {
                        path: string;
                        message: string;
                    }[];
                }[];
                adjusted: {
                    source: string;
                    name: string;
                    url: string;
                    changes: string[];
                }[];
                /**
                 * @description Each monitor of another kind than HTTP (ping, port, DNS, push, gRPC, WebSocket, mail) as a check of a website: its kind, where it went and what became of it (exists: the website watches that target already)
                 * @default []
                 */
                monitors: {
                    source: string;
                    name: string;
                    url: string;
                    /**
                     * @description The kind of check it became
                     * @enum {string}
                     */
                    kind: "heartbeat" | "dns" | "port" | "icmp" | "udp" | "grpc" | "websocket" | "smtp" | "imap" | "pop3";
                    /** @enum {string} */
                    status: "created" | "would-create" | "exists";
                    /** @description null: a dry run */
                    monitorId: number | null;
                    /** @description Where it went (id null: a website this dry run would make) */
                    website: {
                        id: number | null;
                        publicId: string | null;
                        name: string;
                    };
                    /**
                     * @description the website of its host, the one attachTo names, or (a heartbeat) the one of its name
                     * @enum {string}
                     */
                    via: "host" | "attachTo" | "name";
                }[];
                /** @description `webmon-json`: each thing of the export and what became of it (exists: the organization has one by that key, left as it is; skipped: a thing it needs was not made) */
                resources: {
                    /** @enum {string} */
                    kind: "package" | "customer" | "channel" | "website" | "maintenanceWindow" | "monitor" | "statusPage";
                    name: string;
                    /** @enum {string} */
                    status: "created" | "would-create" | "exists" | "failed" | "skipped";
                    id: number | null;
                    errors: {
                        path: string;
                        message: string;
                    }[];
                }[];
            };
            error: string | null;
            /** Format: date-time */
            createdAt: string;
            finishedAt: string | null;
        };
        MaintenanceOccurrences: {
            windowId: number;
            timezone: string;
            items: {
                /** Format: date-time */
                startsAt: string;
                /** Format: date-time */
                endsAt: string;
            }[];
        };
        MaintenancePreview: {
            timezone: string;
            items: {
                /** Format: date-time */
                startsAt: string;
                /** Format: date-time */
                endsAt: string;
            }[];
        };
        MaintenanceCheck: {
            websiteId: number;
            inMaintenance: boolean;
            window: {
                id: number;
                title: string;
                timezone: string;
                /** Format: date-time */
                startsAt: string;
                /** Format: date-time */
                endsAt: string;
            } | null;
        };
        MaintenanceCheckBatch: {
            results: {
                websiteId: number;
                inMaintenance: boolean;
                windowId: number | null;
                endsAt: string | null;
                /** @constant */
                error?: "not_found";
            }[];
        };
        CreatedChannel: {
            id: number;
            organizationId: number;
            type: components["schemas"]["ChannelType"];
            name: string;
            enabled: boolean;
            events: components["schemas"]["EventKind"][];
            scope: components["schemas"]["ChannelScope"];
            /** @description The type’s config; each write-only field shows as <field>Set: true|false instead */
            config: {
                [key: string]: string | number | boolean | string[] | null;
            };
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description Webhook channels only: the signing secret (whsec_…), shown this once */
            secret?: string;
        };
        RotatedSecret: {
            /** @description The new signing secret (whsec_…), shown this once */
            secret: string;
            /**
             * Format: date-time
             * @description Until then the old secret signs too
             */
            previousSecretValidUntil: string;
        };
        Delivery: {
            id: number;
            channelId: number;
            eventId: string;
            /** @enum {string} */
            eventType: "website.down" | "website.up" | "website.degraded" | "website.unmonitored" | "website.monitored" | "ssl.expiring" | "ssl.invalid" | "domain.expiring" | "maintenance.started" | "maintenance.ended" | "incident.acknowledged" | "heartbeat.down" | "heartbeat.up" | "dns.down" | "dns.up" | "dns.changed" | "port.down" | "port.up" | "icmp.down" | "icmp.up" | "udp.down" | "udp.up" | "grpc.down" | "grpc.up" | "websocket.down" | "websocket.up" | "smtp.down" | "smtp.up" | "imap.down" | "imap.up" | "pop3.down" | "pop3.up" | "test";
            /**
             * @description pending: attempts go on (retries on SPEC’s schedule); skipped: the event means nothing to this channel
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed" | "skipped";
            /** @description Why it failed or was skipped */
            outcome: string | null;
            /** @description What the tool made of it (the Jira issue a down event opened) */
            externalRef: string | null;
            attempts: {
                /** Format: date-time */
                at: string;
                durationMs: number;
                httpStatus: number | null;
                error: string | null;
                /** @description The first 2 KiB of the answer */
                responseExcerpt: string | null;
            }[];
            /** @description The event as sent (webhooks) or formatted (connectors) */
            payload: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        Monitor: components["schemas"]["Heartbeat"] | components["schemas"]["DnsCheck"] | components["schemas"]["PortCheck"] | components["schemas"]["IcmpCheck"] | components["schemas"]["UdpCheck"] | components["schemas"]["GrpcCheck"] | components["schemas"]["WebsocketCheck"] | components["schemas"]["SmtpCheck"] | components["schemas"]["ImapCheck"] | components["schemas"]["Pop3Check"];
        Heartbeat: {
            id: number;
            websiteId: number;
            /** @constant */
            kind: "heartbeat";
            name: string;
            schedule: components["schemas"]["HeartbeatPeriod"] | components["schemas"]["HeartbeatCron"];
            graceSeconds: number;
            maxRunSeconds: number | null;
            /** @description The URL the job calls (`/ping/{token}`): the token is its credential, shown to editors only */
            pingUrl: string | null;
            /**
             * @description paused while its website is paused or its customer is not monitored
             * @enum {string}
             */
            status: "unknown" | "up" | "down" | "maintenance" | "paused";
            /** @description When that status began, where known */
            since: string | null;
            /** @description What the last failure said */
            lastCause: string | null;
            openIncidentId: string | null;
            lastSuccessAt: string | null;
            lastStartAt: string | null;
            lastFailureAt: string | null;
            /** @description The next five times a ping is expected */
            nextExpectedAt: string[];
            /**
             * Format: date-time
             * @description Down unless a success comes before this
             */
            deadlineAt: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        HeartbeatPeriod: {
            periodSeconds: number;
        };
        HeartbeatCron: {
            cron: string;
            timezone: string;
        };
        DnsCheck: {
            id: number;
            websiteId: number;
            /** @constant */
            kind: "dns";
            name: string;
            /** @enum {string} */
            recordType: "A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS" | "CAA";
            host: string;
            expected: "unchanged" | string[];
            /** @description With 'unchanged': the answer it holds to */
            learned: {
                values: string[];
                /** Format: date-time */
                at: string;
            } | null;
            /** @description A changed answer not yet learned (acknowledge it to learn it now) */
            pendingChange: {
                previous: string[];
                current: string[];
                /** Format: date-time */
                since: string;
            } | null;
            intervalSeconds: number;
            timeoutSeconds: number;
            relearnAfterSeconds: number;
            /**
             * @description paused while its website is paused or its customer is not monitored
             * @enum {string}
             */
            status: "unknown" | "up" | "down" | "maintenance" | "paused";
            /** @description When that status began, where known */
            since: string | null;
            /** @description What the last failure said */
            lastCause: string | null;
            openIncidentId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        PortCheck: {
            id: number;
            websiteId: number;
            /** @constant */
            kind: "port";
            name: string;
            host: string;
            port: number;
            tls: boolean;
            expectBanner: string | null;
            intervalSeconds: number;
            timeoutSeconds: number;
            /**
             * @description paused while its website is paused or its customer is not monitored
             * @enum {string}
             */
            status: "unknown" | "up" | "down" | "maintenance" | "paused";
            /** @description When that status began, where known */
            since: string | null;
            /** @description What the last failure said */
            lastCause: string | null;
            openIncidentId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        IcmpCheck: {
            id: number;
            websiteId: number;
            /** @constant */
            kind: "icmp";
            name: string;
            intervalSeconds: number;
            timeoutSeconds: number;
            /**
             * @description paused while its website is paused or its customer is not monitored
             * @enum {string}
             */
            status: "unknown" | "up" | "down" | "maintenance" | "paused";
            /** @description When that status began, where known */
            since: string | null;
            /** @description What the last failure said */
            lastCause: string | null;
            openIncidentId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description What to ping (default: the website's host) */
            host?: string;
            /** @description Echo requests sent each check */
            count?: number;
            /** @description Lost replies above this share are down */
            maxLossPercent?: number;
            /** @description An average round trip above this is degraded (null: not judged) */
            maxRttMs?: number | null;
        };
        UdpCheck: {
            id: number;
            websiteId: number;
            /** @constant */
            kind: "udp";
            name: string;
            intervalSeconds: number;
            timeoutSeconds: number;
            /**
             * @description paused while its website is paused or its customer is not monitored
             * @enum {string}
             */
            status: "unknown" | "up" | "down" | "maintenance" | "paused";
            /** @description When that status began, where known */
            since: string | null;
            /** @description What the last failure said */
            lastCause: string | null;
            openIncidentId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description Where to send (default: the website's host) */
            host?: string;
            port?: number;
            /** @description The datagram sent, as text or as hex digits */
            payload?: string;
            /** @enum {string} */
            payloadEncoding?: "text" | "hex";
            /** @description What the reply must hold: {contains: text} or {matches: RE2 pattern}; null: any reply */
            expect?: (components["schemas"]["ReplyContains"] | components["schemas"]["ReplyMatches"]) | null;
        };
        GrpcCheck: {
            id: number;
            websiteId: number;
            /** @constant */
            kind: "grpc";
            name: string;
            intervalSeconds: number;
            timeoutSeconds: number;
            /**
             * @description paused while its website is paused or its customer is not monitored
             * @enum {string}
             */
            status: "unknown" | "up" | "down" | "maintenance" | "paused";
            /** @description When that status began, where known */
            since: string | null;
            /** @description What the last failure said */
            lastCause: string | null;
            openIncidentId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description The gRPC server (default: the website's host) */
            host?: string;
            port?: number;
            /** @description TLS (the certificate checked as for HTTPS); false: plaintext HTTP/2 */
            tls?: boolean;
            /** @description The service asked about ('' : the server as a whole) */
            service?: string;
            /** @description Sent with the call (e.g. an API key header) */
            metadata?: {
                [key: string]: string;
            };
        };
        WebsocketCheck: {
            id: number;
            websiteId: number;
            /** @constant */
            kind: "websocket";
            name: string;
            intervalSeconds: number;
            timeoutSeconds: number;
            /**
             * @description paused while its website is paused or its customer is not monitored
             * @enum {string}
             */
            status: "unknown" | "up" | "down" | "maintenance" | "paused";
            /** @description When that status began, where known */
            since: string | null;
            /** @description What the last failure said */
            lastCause: string | null;
            openIncidentId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /**
             * Format: uri
             * @description ws:// or wss:// address
             */
            url?: string;
            /** @description Query parameters added to the URL (where WebSocket servers take a token: browsers cannot send headers); credential names (token, key, auth, secret…) are sealed and shown as "(set)" */
            query?: {
                [key: string]: string;
            };
            /** @description Values `send`, `headers` and `query` use as {{secret.NAME}} (a message that logs in, say): sealed when written, shown as "(set)", blanked in evidence */
            secrets?: {
                [key: string]: string;
            };
            /** @description Sent with the upgrade request (credential headers are shown as "(set)") */
            headers?: {
                [key: string]: string;
            };
            /** @description Asked for; the server must choose it */
            subprotocol?: string | null;
            /** @description A text message sent once open */
            send?: string | null;
            /** @description What the reply must hold: {contains: text} or {matches: RE2 pattern}; null: any reply */
            expect?: (components["schemas"]["ReplyContains"] | components["schemas"]["ReplyMatches"]) | null;
        };
        SmtpCheck: {
            id: number;
            websiteId: number;
            /** @constant */
            kind: "smtp";
            name: string;
            intervalSeconds: number;
            timeoutSeconds: number;
            /**
             * @description paused while its website is paused or its customer is not monitored
             * @enum {string}
             */
            status: "unknown" | "up" | "down" | "maintenance" | "paused";
            /** @description When that status began, where known */
            since: string | null;
            /** @description What the last failure said */
            lastCause: string | null;
            openIncidentId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description The mail server (default: the website's host) */
            host?: string;
            /** @description Default: the protocol’s port for the security chosen (SMTP 587/465/25, IMAP 143/993, POP3 110/995) */
            port?: number;
            /**
             * @description starttls: greeting in clear, then upgraded; tls: TLS at once; none: clear only
             * @enum {string}
             */
            security?: "starttls" | "tls" | "none";
        };
        ImapCheck: {
            id: number;
            websiteId: number;
            /** @constant */
            kind: "imap";
            name: string;
            intervalSeconds: number;
            timeoutSeconds: number;
            /**
             * @description paused while its website is paused or its customer is not monitored
             * @enum {string}
             */
            status: "unknown" | "up" | "down" | "maintenance" | "paused";
            /** @description When that status began, where known */
            since: string | null;
            /** @description What the last failure said */
            lastCause: string | null;
            openIncidentId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description The mail server (default: the website's host) */
            host?: string;
            /** @description Default: the protocol’s port for the security chosen (SMTP 587/465/25, IMAP 143/993, POP3 110/995) */
            port?: number;
            /**
             * @description starttls: greeting in clear, then upgraded; tls: TLS at once; none: clear only
             * @enum {string}
             */
            security?: "starttls" | "tls" | "none";
        };
        Pop3Check: {
            id: number;
            websiteId: number;
            /** @constant */
            kind: "pop3";
            name: string;
            intervalSeconds: number;
            timeoutSeconds: number;
            /**
             * @description paused while its website is paused or its customer is not monitored
             * @enum {string}
             */
            status: "unknown" | "up" | "down" | "maintenance" | "paused";
            /** @description When that status began, where known */
            since: string | null;
            /** @description What the last failure said */
            lastCause: string | null;
            openIncidentId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description The mail server (default: the website's host) */
            host?: string;
            /** @description Default: the protocol’s port for the security chosen (SMTP 587/465/25, IMAP 143/993, POP3 110/995) */
            port?: number;
            /**
             * @description starttls: greeting in clear, then upgraded; tls: TLS at once; none: clear only
             * @enum {string}
             */
            security?: "starttls" | "tls" | "none";
        };
        HeartbeatPreview: {
            nextExpectedAt: string[];
        };
        HeartbeatPing: {
            /** @enum {string} */
            kind: "success" | "start" | "failure";
            /** Format: date-time */
            at: string;
            exitCode: number | null;
            /** @description What the job sent (its first 10 KB), as text */
            body: string;
            bodyTruncated: boolean;
            /** @description Where the ping came from */
            address: string | null;
        };
        MonitorRun: {
            kind: string;
            monitorId: number;
            /** Format: date-time */
            startedAt: string;
            /** @enum {string} */
            status: "up" | "degraded" | "down";
            cause: string | null;
            durationMs: number;
            address: string | null;
            timings: {
                [key: string]: number | null;
            };
            evidence: {
                [key: string]: unknown;
            };
        };
        MonitorResult: {
            /** @enum {string} */
            kind: "dns" | "port" | "icmp" | "udp" | "grpc" | "websocket" | "smtp" | "imap" | "pop3";
            monitorId: number;
            region: string;
            /** Format: date-time */
            at: string;
            /** @enum {string} */
            status: "up" | "degraded" | "down";
            cause: string | null;
            durationMs: number;
            /** @description DNS: the answer */
            values?: string[];
            /** @description Port: the address connected to */
            address?: string | null;
            connectMs?: number | null;
            tlsMs?: number | null;
            banner?: string | null;
            certificate?: {
                /** Format: date-time */
                validTo: string;
                daysLeft: number;
                issuer: string;
                subject: string;
                valid: boolean;
            } | null;
            /** @description A probe kind’s step timings in ms (dnsMs, connectMs, tlsMs, greetingMs, replyMs, …, totalMs) */
            timings?: {
                [key: string]: number | null;
            };
            /** @description What a probe kind’s check saw (its reply, greeting, status, certificate), bounded, no secret */
            evidence?: {
                [key: string]: unknown;
            };
        };
        PingAccepted: {
            /** @constant */
            ok: true;
        };
        MonitoringNode: {
            /** @description Address of the node */
            ip: string;
            region: string;
            active: boolean;
        };
        PublicStatusPage: {
            title: string;
            branding: {
                logoUrl: string | null;
                accentColor: string | null;
                footerText: string | null;
            };
            /** Format: date-time */
            generatedAt: string;
            overall: {
                state: string;
                text: string;
            };
            websites: {
                name: string;
                status: string;
                statusText: string;
                lastCheckedAt: string | null;
                uptime90dPercent: number | null;
                days: {
                    date: string;
                    uptimePercent: number | null;
                    downtimeSeconds: number;
                }[];
                responseTimes: {
                    /** Format: date-time */
                    hour: string;
                    averageMs: number | null;
                }[] | null;
                /** @description Its scheduled jobs (heartbeats), DNS records, service ports and the other checks, each with its 90 days as the website has them */
                monitors: {
                    kind: string;
                    name: string;
                    status: string;
                    statusText: string;
                    uptime90dPercent: number | null;
                    days: {
                        date: string;
                        uptimePercent: number | null;
                        downtimeSeconds: number;
                    }[];
                }[];
            }[];
            incidents: {
                website: string;
                /** Format: date-time */
                startedAt: string;
                resolvedAt: string | null;
                durationSeconds: number;
                open: boolean;
                /** @description The root cause, as the agency made it public */
                note: string | null;
            }[];
            maintenance: {
                website: string;
                title: string;
                /** Format: date-time */
                startsAt: string;
                /** Format: date-time */
                endsAt: string;
            }[];
        };
        AuditEventPage: {
            items: components["schemas"]["AuditEvent"][];
            /** @description Pass as `cursor` for the next (older) page; null at the end. A page may be short. */
            nextCursor: string | null;
        };
        AuditEvent: {
            /** @description The event’s number in its organization, increasing with time */
            id: number;
            /** Format: date-time */
            at: string;
            actor: {
                /** @enum {string} */
                type: "user" | "token" | "anonymous";
                id: number | null;
                role?: string;
                scopes?: string[];
            };
            action: string;
            method: string;
            route: string;
            resource: string;
            resourceId: string | null;
            /** @enum {string} */
            outcome: "succeeded" | "failed";
            status: number;
            address: string;
            requestId: string;
            changes: {
                path: string;
                old?: unknown;
                new?: unknown;
                /** @constant */
                writeOnly?: true;
            }[];
            subject?: {
                email: string;
            };
            /** @description On sign-ins whose password was right: how the person signed in */
            signIn?: {
                /**
                 * @description What proved the person: the password alone, with a TOTP code, or with a recovery code
                 * @enum {string}
                 */
                method: "password" | "totp" | "recovery-code";
            };
        };
        WebsiteOverview: {
            id: number;
            name: string;
            url: string;
            customerId: number;
            customerName: string;
            status: string;
            statusText: string;
            lastCheckedAt: string | null;
            uptime24hPercent: number | null;
            responseTimes24h: (number | null)[];
            /** @description Its heartbeats, DNS and port checks, and how many of them are down */
            monitors: {
                total: number;
                down: number;
            };
        };
        TokenCreate: {
            /** @description What the token is for, e.g. "CI deploys" */
            name: string;
            /** @description read: GET only; write: read and change configuration; admin: also users, tokens and package changes */
            scopes: components["schemas"]["TokenScope"][];
            /** @description Binds the token to one customer: it reads that customer's websites, results, incidents and status pages only (other resources answer 404), and its scopes must be ["read"] */
            customerId?: number;
        };
        Login: {
            email: string;
            password: string;
            /** @description Required once the user has two-factor sign-in on: a current code or a recovery code */
            totp?: string;
        };
        PasswordChange: {
            currentPassword: string;
            newPassword: components["schemas"]["NewPassword"];
        };
        /** @description At least 12 and at most 256 characters; not only spaces; no control characters; no character more than 3 times in a row; not containing your e-mail's name or your organization's name; not a known-breached or easily guessed password. */
        NewPassword: string;
        TwoFactorCode: {
            /** @description The current 6-digit code of the authenticator app, or one of the recovery codes */
            code: string;
        };
        UserUpdate: {
            name?: string;
            role?: components["schemas"]["Role"];
            /** @description Required when the role is (or becomes) client; refused for other roles */
            customerId?: number | null;
        };
        InvitationCreate: {
            /**
             * Format: email
             * @description Unique across the service, whatever its case
             */
            email: string;
            role: components["schemas"]["Role"];
            /** @description Required for the role client; refused for other roles */
            customerId?: number;
        };
        InvitationAcceptance: {
            /** @description The `token` of the link in the e-mail */
            token: string;
            name: string;
            password: components["schemas"]["NewPassword"];
        };
        PasswordResetRequest: {
            email: string;
        };
        PasswordResetConfirmation: {
            /** @description The `token` of the link in the e-mail */
            token: string;
            password: components["schemas"]["NewPassword"];
        };
        PackageCreate: {
            /** @description The raw package type, e.g. "starter"; POST /api/v1/customers takes it as `plan` */
            key: string;
            displayName: string;
            /** @description Omitted features are allowed */
            features?: components["schemas"]["PackageFeaturesInput"];
            limits?: components["schemas"]["PackageLimitsInput"];
            alerting?: components["schemas"]["PackageAlertingInput"];
        };
        PackageFeaturesInput: {
            sslCheck?: boolean;
            httpsRedirectCheck?: boolean;
            statusCheck?: boolean;
            sizeCheck?: boolean;
            responseTimeCheck?: boolean;
            keywordCheck?: boolean;
            domainExpiryCheck?: boolean;
            mtls?: boolean;
            multiRegion?: boolean;
            assertions?: boolean;
            reports?: boolean;
            heartbeats?: boolean;
            dnsChecks?: boolean;
            portChecks?: boolean;
            icmpChecks?: boolean;
            udpChecks?: boolean;
            grpcChecks?: boolean;
            websocketChecks?: boolean;
            mailServerChecks?: boolean;
        };
        PackageLimitsInput: {
            /** @description Websites per customer */
            maxWebsites?: number;
            minCheckIntervalSeconds?: number;
            resultRetentionDays?: number;
            maxHeartbeatsPerWebsite?: number;
            maxDnsChecksPerWebsite?: number;
            maxPortChecksPerWebsite?: number;
            maxIcmpChecksPerWebsite?: number;
            maxUdpChecksPerWebsite?: number;
            maxGrpcChecksPerWebsite?: number;
            maxWebsocketChecksPerWebsite?: number;
            /** @description SMTP, IMAP and POP3 checks together */
            maxMailServerChecksPerWebsite?: number;
        };
        PackageAlertingInput: {
            /** @description Consecutive failed checks before down */
            confirmations?: number;
            recoveryConfirmations?: number;
            responseTimeThresholdMs?: number;
            sslExpiryWarningDays?: number;
            domainExpiryWarningDays?: number;
            /** @description 0: no reminders */
            reminderIntervalMinutes?: number;
            /** @description Regions that must agree before down */
            regionQuorum?: number;
        };
        PackageUpdate: {
            /** @description The raw package type, e.g. "starter"; POST /api/v1/customers takes it as `plan` */
            key?: string;
            displayName?: string;
            features?: components["schemas"]["PackageFeaturesInput"];
            limits?: components["schemas"]["PackageLimitsInput"];
            alerting?: components["schemas"]["PackageAlertingInput"];
        };
        AutomationCustomerCreate: {
            name: string;
            /** @description The package key (raw package type), e.g. "starter" */
            plan: string;
            /** Format: email */
            email?: string;
        };
        CustomerCreate: {
            name: string;
            /** Format: email */
            email?: string;
            /** Format: email */
            notificationEmail?: string;
            /** @description The cover line of this customer’s reports (e.g. what the agency did this month) */
            reportIntro?: string;
            reportSchedule?: components["schemas"]["ReportScheduleInput"];
            packageId: number;
        };
        ReportScheduleInput: {
            /**
             * @description monthly: the last calendar month; weekly: the last ISO week (Monday to Sunday)
             * @enum {string}
             */
            frequency: "monthly" | "weekly" | "off";
            /**
             * @description Empty: the customer’s notificationEmail
             * @default []
             */
            recipients: string[];
            /**
             * @description What is attached
             * @default pdf
             * @enum {string}
             */
            format: "pdf" | "html" | "both";
            /**
             * @description monthly: the day it is sent
             * @default 1
             */
            dayOfMonth: number;
            /**
             * @description weekly: the day it is sent
             * @default MO
             * @enum {string}
             */
            weekday: "MO" | "TU" | "WE" | "TH" | "FR" | "SA" | "SU";
            /**
             * @description The hour it is sent, in the organization’s timezone
             * @default 6
             */
            hour: number;
        };
        CustomerUpdate: {
            name?: string;
            email?: string | null;
            notificationEmail?: string | null;
            reportIntro?: string | null;
            reportSchedule?: components["schemas"]["ReportScheduleInput"];
            packageId?: number;
            status?: components["schemas"]["CustomerStatus"];
            /** @description With status marked_for_cancellation; defaults to the end of the current UTC month */
            cancellationDate?: string | null;
        };
        WebsiteCreate: {
            customerId: number;
            name: string;
            /** Format: uri */
            url: string;
            httpMethod?: components["schemas"]["HttpMethod"];
            /** @description Headers sent with each check. Authorization, Proxy-Authorization and Cookie are stored sealed and never returned (see secretHeaders) */
            customHeaders?: {
                [key: string]: string;
            };
            /** @description Headers whose values are credentials (an API key, a token): write-only, sealed at rest, never returned or logged; responses list their names in secretHeaderNames. A value sets or replaces one, null removes it, omitted ones are kept (also in a full update) */
            secretHeaders?: {
                [key: string]: string | null;
            };
            requestBody?: string | null;
            /** @description The body is a credential: stored sealed, never returned (requestBody reads null). Setting it false needs the body sent again */
            requestBodySecret?: boolean;
            followRedirects?: boolean;
            maxRedirects?: number;
            /** @description jar: cookies set during a check are sent on its redirects; none: never */
            cookieHandling?: components["schemas"]["CookieHandling"];
            mtlsEnabled?: boolean;
            /** @description PEM client certificate (a chain may follow it) */
            mtlsClientCert?: string | null;
            /** @description PEM private key, unencrypted; write-only: never returned, encrypted at rest. Omitted: kept; null: cleared */
            mtlsClientKey?: string | null;
            /** @description Seconds between checks */
            checkInterval?: number;
            timeoutSeconds?: number;
            /** @description Regions to check from; empty: all regions (one region unless the package has multiRegion) */
            regions?: string[];
            paused?: boolean;
            /** @description Notification channels that receive this website’s events, besides those whose scope covers it (organization-wide or the customer’s) */
            notificationChannelIds?: number[];
        };
        WebsiteBatchItem: {
            customerId: number;
            name: string;
            /** Format: uri */
            url: string;
            httpMethod?: components["schemas"]["HttpMethod"];
            /** @description Headers sent with each check. Authorization, Proxy-Authorization and Cookie are stored sealed and never returned (see secretHeaders) */
            customHeaders?: {
                [key: string]: string;
            };
            /** @description Headers whose values are credentials (an API key, a token): write-only, sealed at rest, never returned or logged; responses list their names in secretHeaderNames. A value sets or replaces one, null removes it, omitted ones are kept (also in a full update) */
            secretHeaders?: {
                [key: string]: string | null;
            };
            requestBody?: string | null;
            /** @description The body is a credential: stored sealed, never returned (requestBody reads null). Setting it false needs the body sent again */
            requestBodySecret?: boolean;
            followRedirects?: boolean;
            maxRedirects?: number;
            /** @description jar: cookies set during a check are sent on its redirects; none: never */
            cookieHandling?: components["schemas"]["CookieHandling"];
            mtlsEnabled?: boolean;
            /** @description PEM client certificate (a chain may follow it) */
            mtlsClientCert?: string | null;
            /** @description PEM private key, unencrypted; write-only: never returned, encrypted at rest. Omitted: kept; null: cleared */
            mtlsClientKey?: string | null;
            /** @description Seconds between checks */
            checkInterval?: number;
            timeoutSeconds?: number;
            /** @description Regions to check from; empty: all regions (one region unless the package has multiRegion) */
            regions?: string[];
            paused?: boolean;
            /** @description Notification channels that receive this website’s events, besides those whose scope covers it (organization-wide or the customer’s) */
            notificationChannelIds?: number[];
            checkConfig?: components["schemas"]["CheckConfigUpdate"];
        };
        CheckConfigUpdate: {
            checkSslEnabled?: boolean;
            checkHttpsRedirectEnabled?: boolean;
            checkStatusEnabled?: boolean;
            checkSizeEnabled?: boolean;
            checkResponseTimeEnabled?: boolean;
            checkKeywordEnabled?: boolean;
            checkDomainExpiryEnabled?: boolean;
            /** @description Smallest acceptable decoded body, in bytes */
            minPageSize?: number | null;
            /** @description Largest acceptable decoded body, in bytes */
            maxPageSize?: number | null;
            /** @description Codes or ranges, e.g. ["200-299", "304"] */
            expectedStatusCodes?: (number | string)[];
            /** @description Slower is degraded; null: the package's default */
            responseTimeThresholdMs?: number | null;
            keyword?: string | null;
            /** @enum {string} */
            keywordMode?: "present" | "absent";
            keywordCaseSensitive?: boolean;
            /** @description Conditions on the answer (JSON body, headers, body, status, response time); all must hold */
            assertions?: {
                /**
                 * @description What is tested
                 * @enum {string}
                 */
                source: "jsonBody" | "header" | "body" | "status" | "responseTime";
                /** @description jsonBody: an RFC 9535 JSONPath (its first node is tested); header: the header name */
                path?: string;
                /** @enum {string} */
                operator: "equals" | "notEquals" | "contains" | "notContains" | "matches" | "lessThan" | "greaterThan" | "exists" | "notExists";
                /** @description What the actual value is compared with (not for exists/notExists); matches: an RE2 pattern */
                value?: string | number | boolean;
            }[];
        };
        WebsiteUpdate: {
            customerId?: number;
            name?: string;
            /** Format: uri */
            url?: string;
            httpMethod?: components["schemas"]["HttpMethod"];
            /** @description Headers sent with each check. Authorization, Proxy-Authorization and Cookie are stored sealed and never returned (see secretHeaders) */
            customHeaders?: {
                [key: string]: string;
            };
            /** @description Headers whose values are credentials (an API key, a token): write-only, sealed at rest, never returned or logged; responses list their names in secretHeaderNames. A value sets or replaces one, null removes it, omitted ones are kept (also in a full update) */
            secretHeaders?: {
                [key: string]: string | null;
            };
            requestBody?: string | null;
            /** @description The body is a credential: stored sealed, never returned (requestBody reads null). Setting it false needs the body sent again */
            requestBodySecret?: boolean;
            followRedirects?: boolean;
            maxRedirects?: number;
            /** @description jar: cookies set during a check are sent on its redirects; none: never */
            cookieHandling?: components["schemas"]["CookieHandling"];
            mtlsEnabled?: boolean;
            /** @description PEM client certificate (a chain may follow it) */
            mtlsClientCert?: string | null;
            /** @description PEM private key, unencrypted; write-only: never returned, encrypted at rest. Omitted: kept; null: cleared */
            mtlsClientKey?: string | null;
            /** @description Seconds between checks */
            checkInterval?: number;
            timeoutSeconds?: number;
            /** @description Regions to check from; empty: all regions (one region unless the package has multiRegion) */
            regions?: string[];
            paused?: boolean;
            /** @description Notification channels that receive this website’s events, besides those whose scope covers it (organization-wide or the customer’s) */
            notificationChannelIds?: number[];
        };
        ReportMailingRequest: {
            /** @description A day in the organization’s timezone (inclusive) */
            from?: string;
            /** @description A day in the organization’s timezone (inclusive) */
            to?: string;
            recipients?: string[];
            /** @enum {string} */
            format?: "pdf" | "html" | "both";
        };
        OrganizationUpdate: {
            name?: string;
            timezone?: string;
            branding?: {
                /** @description Reports’ headings and charts; null: the default blue */
                accentColor?: string | null;
                /** @description The last line of every report */
                footerText?: string | null;
            };
        };
        LogoUpload: {
            /** @enum {string} */
            contentType: "image/png" | "image/jpeg" | "image/webp";
            /** @description The image, base64; at most 256 KB */
            data: string;
        };
        ImportRequest: {
            /** @enum {string} */
            format: "webmon-json" | "csv" | "uptimerobot-csv" | "uptimerobot-json" | "uptime-kuma";
            /** @description The file, as text */
            content: string;
            /** @description Every monitor goes to this customer */
            customerId?: number;
            /** @description CSV formats: the column naming each monitor’s customer (its name or id) */
            customerColumn?: string;
            /** @description A website of the customer (id or public id): checks (ping, port, DNS, push, gRPC, WebSocket …) whose host has no website of the customer go to it */
            attachTo?: string;
            /**
             * @description Say what would be created; write nothing
             * @default false
             */
            dryRun: boolean;
        };
        MaintenancePreviewRequest: {
            /** Format: date-time */
            startsAt: string;
            /** Format: date-time */
            endsAt: string;
            /** @default UTC */
            timezone: string;
            recurrence?: components["schemas"]["RecurrenceInput"] | null;
            /**
             * Format: date-time
             * @description Occurrences still running at or starting after this (default now)
             */
            from?: string;
            /** @default 5 */
            limit: number;
        };
        RecurrenceInput: {
            /** @enum {string} */
            frequency: "daily" | "weekly" | "monthly";
            /** @default 1 */
            interval: number;
            byWeekday?: ("MO" | "TU" | "WE" | "TH" | "FR" | "SA" | "SU")[];
            /** Format: date-time */
            until?: string;
        };
        MaintenanceWindowCreate: {
            websiteId: number;
            title: string;
            /** Format: date-time */
            startsAt: string;
            /** Format: date-time */
            endsAt: string;
            /** @default UTC */
            timezone: string;
            recurrence?: components["schemas"]["RecurrenceInput"] | null;
        };
        MaintenanceWindowUpdate: {
            title?: string;
            /** Format: date-time */
            startsAt?: string;
            /** Format: date-time */
            endsAt?: string;
            timezone?: string;
            recurrence?: components["schemas"]["RecurrenceInput"] | null;
        };
        MaintenanceCheckBatchRequest: {
            websiteIds: number[];
        };
        ChannelCreate: components["schemas"]["WebhookChannelCreate"] | components["schemas"]["SlackChannelCreate"] | components["schemas"]["TeamsChannelCreate"] | components["schemas"]["DiscordChannelCreate"] | components["schemas"]["PagerdutyChannelCreate"] | components["schemas"]["OpsgenieChannelCreate"] | components["schemas"]["JiraChannelCreate"] | components["schemas"]["EmailChannelCreate"];
        WebhookChannelCreate: {
            /** @constant */
            type: "webhook";
            name: string;
            enabled?: boolean;
            /** @description The event kinds this channel receives (default: all) */
            events?: components["schemas"]["EventKind"][];
            scope?: components["schemas"]["ChannelScopeInput"];
            config: components["schemas"]["WebhookChannelConfig"];
        };
        /** @description Which websites’ events the channel receives besides those that list it: {} all of the organization, {customerId} one customer’s, {listedOnly: true} none */
        ChannelScopeInput: {
            /** @description Only the websites of this customer */
            customerId?: number;
            /** @description Only the websites that list this channel in their notificationChannelIds */
            listedOnly?: boolean;
        };
        WebhookChannelConfig: {
            /**
             * Format: uri
             * @description Receives Standard Webhooks POSTs, signed with the channel’s secret
             */
            url: string;
        };
        SlackChannelCreate: {
            /** @constant */
            type: "slack";
            name: string;
            enabled?: boolean;
            /** @description The event kinds this channel receives (default: all) */
            events?: components["schemas"]["EventKind"][];
            scope?: components["schemas"]["ChannelScopeInput"];
            config: components["schemas"]["SlackChannelConfig"];
        };
        SlackChannelConfig: {
            webhookUrl?: string | null;
            /** @description Write-only; with `channel`, messages go through chat.postMessage and incidents thread */
            botToken?: string | null;
            channel?: string | null;
            /**
             * Format: uri
             * @description The Slack Web API
             */
            apiUrl?: string;
        };
        TeamsChannelCreate: {
            /** @constant */
            type: "teams";
            name: string;
            enabled?: boolean;
            /** @description The event kinds this channel receives (default: all) */
            events?: components["schemas"]["EventKind"][];
            scope?: components["schemas"]["ChannelScopeInput"];
            config: components["schemas"]["TeamsChannelConfig"];
        };
        TeamsChannelConfig: {
            /**
             * Format: uri
             * @description A Workflows (Power Automate) webhook URL; write-only
             */
            webhookUrl: string;
        };
        DiscordChannelCreate: {
            /** @constant */
            type: "discord";
            name: string;
            enabled?: boolean;
            /** @description The event kinds this channel receives (default: all) */
            events?: components["schemas"]["EventKind"][];
            scope?: components["schemas"]["ChannelScopeInput"];
            config: components["schemas"]["DiscordChannelConfig"];
        };
        DiscordChannelConfig: {
            /**
             * Format: uri
             * @description Write-only (the URL is the credential): never returned
             */
            webhookUrl: string;
        };
        PagerdutyChannelCreate: {
            /** @constant */
            type: "pagerduty";
            name: string;
            enabled?: boolean;
            /** @description The event kinds this channel receives (default: all) */
            events?: components["schemas"]["EventKind"][];
            scope?: components["schemas"]["ChannelScopeInput"];
            config: components["schemas"]["PagerdutyChannelConfig"];
        };
        PagerdutyChannelConfig: {
            /** @description Write-only */
            routingKey: string;
            /**
             * Format: uri
             * @description Events API v2 endpoint
             */
            eventsUrl?: string;
        };
        OpsgenieChannelCreate: {
            /** @constant */
            type: "opsgenie";
            name: string;
            enabled?: boolean;
            /** @description The event kinds this channel receives (default: all) */
            events?: components["schemas"]["EventKind"][];
            scope?: components["schemas"]["ChannelScopeInput"];
            config: components["schemas"]["OpsgenieChannelConfig"];
        };
        OpsgenieChannelConfig: {
            /** @description Write-only */
            apiKey: string;
            /**
             * Format: uri
             * @description https://api.opsgenie.com, or https://api.eu.opsgenie.com
             */
            apiUrl?: string;
        };
        JiraChannelCreate: {
            /** @constant */
            type: "jira";
            name: string;
            enabled?: boolean;
            /** @description The event kinds this channel receives (default: all) */
            events?: components["schemas"]["EventKind"][];
            scope?: components["schemas"]["ChannelScopeInput"];
            config: components["schemas"]["JiraChannelConfig"];
        };
        JiraChannelConfig: {
            /**
             * Format: uri
             * @description The Jira Cloud site, e.g. https://agency.atlassian.net
             */
            baseUrl: string;
            /**
             * Format: email
             * @description The Atlassian account the API token belongs to
             */
            email: string;
            /** @description Write-only */
            apiToken: string;
            projectKey: string;
            issueType?: string;
            /** @description Transition applied when the website is up */
            doneTransition?: string;
        };
        EmailChannelCreate: {
            /** @constant */
            type: "email";
            name: string;
            enabled?: boolean;
            /** @description The event kinds this channel receives (default: all) */
            events?: components["schemas"]["EventKind"][];
            scope?: components["schemas"]["ChannelScopeInput"];
            config: components["schemas"]["EmailChannelConfig"];
        };
        EmailChannelConfig: {
            /** @description SMTP server */
            host: string;
            port?: number;
            /** @description true: TLS from the first byte (port 465); false: STARTTLS when offered */
            secure?: boolean;
            username?: string | null;
            /** @description Write-only; null clears it */
            password?: string | null;
            /** Format: email */
            from: string;
            to: string[];
        };
        ChannelUpdate: {
            name?: string;
            enabled?: boolean;
            /** @description The event kinds this channel receives (default: all) */
            events?: components["schemas"]["EventKind"][];
            scope?: components["schemas"]["ChannelScopeInput"];
            /** @description Fields of the channel type’s config to change (as in the create body); write-only fields omitted are kept */
            config?: {
                [key: string]: unknown;
            };
        };
        HeartbeatCreate: {
            name: string;
            schedule: components["schemas"]["HeartbeatScheduleInput"];
            /**
             * @description How late a ping may be before it is missed
             * @default 300
             */
            graceSeconds: number;
            /**
             * @description A run started with /start and not finished within this is late (null: no bound)
             * @default null
             */
            maxRunSeconds: number | null;
        };
        HeartbeatScheduleInput: {
            /** @description The job pings every this many seconds */
            periodSeconds: number;
        } | {
            /** @description Five fields, e.g. "30 2 * * *" */
            cron: string;
            /**
             * @description The cron expression is read in it
             * @default UTC
             */
            timezone: string;
        };
        HeartbeatPreviewRequest: {
            schedule: components["schemas"]["HeartbeatScheduleInput"];
            /**
             * @description How late a ping may be before it is missed
             * @default 0
             */
            graceSeconds: number;
        };
        DnsCheckCreate: {
            /** @description What people call it (default: the record type and name) */
            name?: string;
            /** @enum {string} */
            recordType: "A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS" | "CAA";
            /** @description The name to look up (default: the website's host) */
            host?: string;
            /** @description The values the answer must be (in any order), or 'unchanged': the first answer is learned and a change raises dns.changed */
            expected: "unchanged" | string[];
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 5
             */
            timeoutSeconds: number;
            /**
             * @description With 'unchanged': a changed answer not acknowledged is learned this long after the change
             * @default 86400
             */
            relearnAfterSeconds: number;
        };
        PortCheckCreate: {
            /** @description What people call it (default: host:port) */
            name?: string;
            /** @description Where to connect (default: the website's host) */
            host?: string;
            port: number;
            /**
             * @description A TLS handshake after connecting; the certificate is checked like HTTPS
             * @default false
             */
            tls: boolean;
            /**
             * @description The first line the server sends must start with this (e.g. "220" for SMTP)
             * @default null
             */
            expectBanner: string | null;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
        };
        MonitorCreate: components["schemas"]["HeartbeatMonitorCreate"] | components["schemas"]["DnsMonitorCreate"] | components["schemas"]["PortMonitorCreate"] | components["schemas"]["IcmpCheckCreate"] | components["schemas"]["UdpCheckCreate"] | components["schemas"]["GrpcCheckCreate"] | components["schemas"]["WebsocketCheckCreate"] | components["schemas"]["SmtpCheckCreate"] | components["schemas"]["ImapCheckCreate"] | components["schemas"]["Pop3CheckCreate"];
        HeartbeatMonitorCreate: {
            name: string;
            schedule: components["schemas"]["HeartbeatScheduleInput"];
            /**
             * @description How late a ping may be before it is missed
             * @default 300
             */
            graceSeconds: number;
            /**
             * @description A run started with /start and not finished within this is late (null: no bound)
             * @default null
             */
            maxRunSeconds: number | null;
            /** @constant */
            kind: "heartbeat";
        };
        DnsMonitorCreate: {
            /** @description What people call it (default: the record type and name) */
            name?: string;
            /** @enum {string} */
            recordType: "A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS" | "CAA";
            /** @description The name to look up (default: the website's host) */
            host?: string;
            /** @description The values the answer must be (in any order), or 'unchanged': the first answer is learned and a change raises dns.changed */
            expected: "unchanged" | string[];
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 5
             */
            timeoutSeconds: number;
            /**
             * @description With 'unchanged': a changed answer not acknowledged is learned this long after the change
             * @default 86400
             */
            relearnAfterSeconds: number;
            /** @constant */
            kind: "dns";
        };
        PortMonitorCreate: {
            /** @description What people call it (default: host:port) */
            name?: string;
            /** @description Where to connect (default: the website's host) */
            host?: string;
            port: number;
            /**
             * @description A TLS handshake after connecting; the certificate is checked like HTTPS
             * @default false
             */
            tls: boolean;
            /**
             * @description The first line the server sends must start with this (e.g. "220" for SMTP)
             * @default null
             */
            expectBanner: string | null;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @constant */
            kind: "port";
        };
        /** @description ICMP echo requests (IPv4 or IPv6) to the address the SSRF guard allows, through the system ping. Down when more than maxLossPercent of them are lost (all lost: unreachable); degraded when the average round trip is above maxRttMs. Package feature `icmpChecks`, limit `maxIcmpChecksPerWebsite`. */
        IcmpCheckCreate: {
            /** @constant */
            kind: "icmp";
            /** @description What people call it (default: from its target, e.g. 'SMTP mx.example:587') */
            name?: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @description What to ping (default: the website's host) */
            host?: string;
            /**
             * @description Echo requests sent each check
             * @default 3
             */
            count: number;
            /**
             * @description Lost replies above this share are down
             * @default 0
             */
            maxLossPercent: number;
            /**
             * @description An average round trip above this is degraded (null: not judged)
             * @default null
             */
            maxRttMs: number | null;
        };
        /** @description One datagram (text or hex) to the address the SSRF guard allows, and the first reply back: down without a reply within the timeout (or on port unreachable), or when it does not hold `expect` ({contains} or an RE2 {matches}; hex payloads are matched as hex digits). Package feature `udpChecks`, limit `maxUdpChecksPerWebsite`. */
        UdpCheckCreate: {
            /** @constant */
            kind: "udp";
            /** @description What people call it (default: from its target, e.g. 'SMTP mx.example:587') */
            name?: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @description Where to send (default: the website's host) */
            host?: string;
            port: number;
            /**
             * @description The datagram sent, as text or as hex digits
             * @default
             */
            payload: string;
            /**
             * @default text
             * @enum {string}
             */
            payloadEncoding: "text" | "hex";
            /**
             * @description What the reply must hold: {contains: text} or {matches: RE2 pattern}; null: any reply
             * @default null
             */
            expect: (components["schemas"]["ReplyContains"] | components["schemas"]["ReplyMatches"]) | null;
        };
        /** @description The standard gRPC health check (grpc.health.v1.Health/Check) for `service`, plaintext or TLS, with `metadata`: up on SERVING, down on any other status or a failed call; with TLS the certificate is judged as for HTTPS (not valid: down; expiring within the package’s warning days: degraded). Package feature `grpcChecks`, limit `maxGrpcChecksPerWebsite`. */
        GrpcCheckCreate: {
            /** @constant */
            kind: "grpc";
            /** @description What people call it (default: from its target, e.g. 'SMTP mx.example:587') */
            name?: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @description The gRPC server (default: the website's host) */
            host?: string;
            port: number;
            /**
             * @description TLS (the certificate checked as for HTTPS); false: plaintext HTTP/2
             * @default false
             */
            tls: boolean;
            /**
             * @description The service asked about ('' : the server as a whole)
             * @default
             */
            service: string;
            /**
             * @description Sent with the call (e.g. an API key header)
             * @default {}
             */
            metadata: {
                [key: string]: string;
            };
        };
        /** @description A WebSocket opened as a browser opens it (ws or wss; the certificate judged as for HTTPS), with `headers` and the `subprotocol` the server must choose; then, with `send` or `expect`, a message sent and the first one back read and matched ({contains} or an RE2 {matches}). A token the server takes in the URL goes in `query` and a value the message carries in `secrets` (used as {{secret.NAME}}): sealed, shown as "(set)", blanked in evidence; a credential in the URL itself is refused. Package feature `websocketChecks`, limit `maxWebsocketChecksPerWebsite`. */
        WebsocketCheckCreate: {
            /** @constant */
            kind: "websocket";
            /** @description What people call it (default: from its target, e.g. 'SMTP mx.example:587') */
            name?: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /**
             * Format: uri
             * @description ws:// or wss:// address
             */
            url: string;
            /**
             * @description Query parameters added to the URL (where WebSocket servers take a token: browsers cannot send headers); credential names (token, key, auth, secret…) are sealed and shown as "(set)"
             * @default {}
             */
            query: {
                [key: string]: string;
            };
            /**
             * @description Values `send`, `headers` and `query` use as {{secret.NAME}} (a message that logs in, say): sealed when written, shown as "(set)", blanked in evidence
             * @default {}
             */
            secrets: {
                [key: string]: string;
            };
            /**
             * @description Sent with the upgrade request (credential headers are shown as "(set)")
             * @default {}
             */
            headers: {
                [key: string]: string;
            };
            /**
             * @description Asked for; the server must choose it
             * @default null
             */
            subprotocol: string | null;
            /**
             * @description A text message sent once open
             * @default null
             */
            send: string | null;
            /**
             * @description What the reply must hold: {contains: text} or {matches: RE2 pattern}; null: any reply
             * @default null
             */
            expect: (components["schemas"]["ReplyContains"] | components["schemas"]["ReplyMatches"]) | null;
        };
        /** @description A SMTP server (sending mail) as its clients meet it: the greeting read and judged, STARTTLS or TLS at once as `security` says, the certificate judged as for HTTPS (not valid: down; expiring within the package’s warning days: degraded), the time to each step recorded. Package feature `mailServerChecks`, limit `maxMailServerChecksPerWebsite` (SMTP, IMAP and POP3 together). */
        SmtpCheckCreate: {
            /** @constant */
            kind: "smtp";
            /** @description What people call it (default: from its target, e.g. 'SMTP mx.example:587') */
            name?: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @description The mail server (default: the website's host) */
            host?: string;
            /** @description Default: the protocol’s port for the security chosen (SMTP 587/465/25, IMAP 143/993, POP3 110/995) */
            port?: number;
            /**
             * @description starttls: greeting in clear, then upgraded; tls: TLS at once; none: clear only
             * @default starttls
             * @enum {string}
             */
            security: "starttls" | "tls" | "none";
        };
        /** @description A IMAP server (reading mail) as its clients meet it: the greeting read and judged, STARTTLS or TLS at once as `security` says, the certificate judged as for HTTPS (not valid: down; expiring within the package’s warning days: degraded), the time to each step recorded. Package feature `mailServerChecks`, limit `maxMailServerChecksPerWebsite` (SMTP, IMAP and POP3 together). */
        ImapCheckCreate: {
            /** @constant */
            kind: "imap";
            /** @description What people call it (default: from its target, e.g. 'SMTP mx.example:587') */
            name?: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @description The mail server (default: the website's host) */
            host?: string;
            /** @description Default: the protocol’s port for the security chosen (SMTP 587/465/25, IMAP 143/993, POP3 110/995) */
            port?: number;
            /**
             * @description starttls: greeting in clear, then upgraded; tls: TLS at once; none: clear only
             * @default starttls
             * @enum {string}
             */
            security: "starttls" | "tls" | "none";
        };
        /** @description A POP3 server (collecting mail) as its clients meet it: the greeting read and judged, STARTTLS or TLS at once as `security` says, the certificate judged as for HTTPS (not valid: down; expiring within the package’s warning days: degraded), the time to each step recorded. Package feature `mailServerChecks`, limit `maxMailServerChecksPerWebsite` (SMTP, IMAP and POP3 together). */
        Pop3CheckCreate: {
            /** @constant */
            kind: "pop3";
            /** @description What people call it (default: from its target, e.g. 'SMTP mx.example:587') */
            name?: string;
            /**
             * @description Seconds between checks (at least the package minimum)
             * @default 300
             */
            intervalSeconds: number;
            /**
             * @description Seconds one check may take
             * @default 10
             */
            timeoutSeconds: number;
            /** @description The mail server (default: the website's host) */
            host?: string;
            /** @description Default: the protocol’s port for the security chosen (SMTP 587/465/25, IMAP 143/993, POP3 110/995) */
            port?: number;
            /**
             * @description starttls: greeting in clear, then upgraded; tls: TLS at once; none: clear only
             * @default starttls
             * @enum {string}
             */
            security: "starttls" | "tls" | "none";
        };
        /** @description name, intervalSeconds, timeoutSeconds and the fields of the check’s kind; unknown fields are refused */
        ProbeCheckUpdate: {
            /** @description What people call it (default: from its target, e.g. 'SMTP mx.example:587') */
            name?: string;
            /** @description Seconds between checks (at least the package minimum) */
            intervalSeconds?: number;
            /** @description Seconds one check may take */
            timeoutSeconds?: number;
        } & {
            [key: string]: unknown;
        };
        HeartbeatUpdate: {
            name?: string;
            schedule?: components["schemas"]["HeartbeatScheduleInput"];
            /** @description How late a ping may be before it is missed */
            graceSeconds?: number;
            /** @description A run started with /start and not finished within this is late (null: no bound) */
            maxRunSeconds?: number | null;
        };
        DnsCheckUpdate: {
            /** @description What people call it (default: the record type and name) */
            name?: string;
            /** @enum {string} */
            recordType?: "A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS" | "CAA";
            /** @description The name to look up (default: the website's host) */
            host?: string;
            /** @description The values the answer must be (in any order), or 'unchanged': the first answer is learned and a change raises dns.changed */
            expected?: "unchanged" | string[];
            /** @description Seconds between checks (at least the package minimum) */
            intervalSeconds?: number;
            /** @description Seconds one check may take */
            timeoutSeconds?: number;
            /** @description With 'unchanged': a changed answer not acknowledged is learned this long after the change */
            relearnAfterSeconds?: number;
        };
        PortCheckUpdate: {
            /** @description What people call it (default: host:port) */
            name?: string;
            /** @description Where to connect (default: the website's host) */
            host?: string;
            port?: number;
            /** @description A TLS handshake after connecting; the certificate is checked like HTTPS */
            tls?: boolean;
            /** @description The first line the server sends must start with this (e.g. "220" for SMTP) */
            expectBanner?: string | null;
            /** @description Seconds between checks (at least the package minimum) */
            intervalSeconds?: number;
            /** @description Seconds one check may take */
            timeoutSeconds?: number;
        };
        StatusPageCreate: {
            /** @description The page’s address: /status/{slug}; unique across the installation */
            slug: string;
            title: string;
            customerId: number;
            /**
             * @description The customer’s websites shown; null: all of them, as they come and go
             * @default null
             */
            websiteIds: number[] | null;
            /**
             * @default {
             *       "logoUrl": null,
             *       "accentColor": null,
             *       "footerText": null
             *     }
             */
            branding: {
                /** @default null */
                logoUrl: string | null;
                /** @default null */
                accentColor: string | null;
                /** @default null */
                footerText: string | null;
            };
            /**
             * @description Served at /status/{slug} without a token
             * @default false
             */
            public: boolean;
            /** @default true */
            showResponseTimes: boolean;
            /**
             * @description Sites that may show the page in a frame (CSP frame-ancestors); empty: none may (X-Frame-Options: DENY)
             * @default []
             */
            embedAllowedOrigins: string[];
        };
        StatusPageUpdate: {
            /** @description The page’s address: /status/{slug}; unique across the installation */
            slug?: string;
            title?: string;
            /** @description The customer’s websites shown; null: all of them, as they come and go */
            websiteIds?: number[] | null;
            branding?: {
                /** @default null */
                logoUrl: string | null;
                /** @default null */
                accentColor: string | null;
                /** @default null */
                footerText: string | null;
            };
            public?: boolean;
            showResponseTimes?: boolean;
            /** @description Sites that may show the page in a frame (CSP frame-ancestors); empty: none may (X-Frame-Options: DENY) */
            embedAllowedOrigins?: string[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request's id: the caller's `x-request-id` when it sent a sane one, else a new UUID; also in logs and in problems as `requestId` */
        "x-request-id": string;
        /** @description Requests the token may make per window (draft-ietf-httpapi-ratelimit-headers) */
        "RateLimit-Limit": number;
        /** @description Requests left in the current window */
        "RateLimit-Remaining": number;
        /** @description Seconds until the window resets */
        "RateLimit-Reset": number;
        /** @description The limit and its window, e.g. `1200;w=60` */
        "RateLimit-Policy": string;
        /** @description Seconds to wait before trying again */
        "Retry-After": number;
        /** @description `Bearer realm="webmon"` with the RFC 6750 error */
        "WWW-Authenticate": string;
        /** @description Path of the created or started resource */
        Location: string;
        /** @description `<…>; rel="next"` to the next page, absent on the last */
        Link: string;
        /** @description How long the answer may be reused (`no-store` for one showing a secret) */
        "Cache-Control": string;
        /** @description The representation’s version; send it back in `If-None-Match` to get a 304 while it holds */
        ETag: string;
        /** @description `attachment; filename="…"`: a download, and the file name it is saved under */
        "Content-Disposition": string;
        /** @description The session cookie `webmon_session` (HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS): set by signing in, cleared by signing out */
        "Set-Cookie": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getMonitoringFileSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON Schema (draft 2020-12) */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Metrics */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; version=0.0.4; charset=utf-8": string;
                };
            };
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI document */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getProblemType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: "validation-error" | "malformed-json" | "unauthorized" | "forbidden" | "not-found" | "method-not-allowed" | "conflict" | "payload-too-large" | "unsupported-media-type" | "rate-limited" | "internal-error" | "service-unavailable";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The problem type */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        type: string;
                        status: number;
                        title: string;
                        description: string;
                    };
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens, oldest first */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"][];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedToken"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMyTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens, oldest first */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"][];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createMyToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedToken"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMyToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeMyToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Login"];
            };
        };
        responses: {
            /** @description Signed in */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    changeMyPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChange"];
            };
        };
        responses: {
            /** @description Changed; the new session cookie set */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out; the cookie cleared */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller, its organization and scopes */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMySessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sessions */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"][];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    endMySession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    startTwoFactorEnrolment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret to add to an authenticator app */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorEnrolment"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    disableTwoFactor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TwoFactorCode"];
            };
        };
        responses: {
            /** @description Off */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    confirmTwoFactor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TwoFactorCode"];
            };
        };
        responses: {
            /** @description On; the recovery codes, each usable once */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecoveryCodes"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Users */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"][];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserUpdate"];
            };
        };
        responses: {
            /** @description The user as changed */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Invitations */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"][];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationCreate"];
            };
        };
        responses: {
            /** @description Invited */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Withdrawn */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationAcceptance"];
            };
        };
        responses: {
            /** @description The user, signed in */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Set-Cookie": components["headers"]["Set-Cookie"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordResetRequest"];
            };
        };
        responses: {
            /** @description A link is mailed if the e-mail is a user’s */
            202: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    confirmPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordResetConfirmation"];
            };
        };
        responses: {
            /** @description Password set; sign in with it */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPackages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Packages */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Package"][];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createPackage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PackageCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Package"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getPackage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The package */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Package"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deletePackage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updatePackage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PackageUpdate"];
            };
        };
        responses: {
            /** @description The updated package */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Package"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCustomers: {
        parameters: {
            query: {
                /** @description Your organization's id (required) */
                organizationId: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Customers, by id */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"][];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCustomerByPlan: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AutomationCustomerCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationCreatedCustomer"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The customer */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerUpdate"];
            };
        };
        responses: {
            /** @description The updated customer */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebsites: {
        parameters: {
            query?: {
                /** @description One customer's websites (all of them); omitted: the organization's, a page at a time */
                customerId?: number;
                /** @description Only websites whose status is this now */
                status?: "unknown" | "up" | "degraded" | "down" | "maintenance" | "paused" | "cancelled" | "unmonitored";
                /** @description Websites per page (default 100 without customerId; with it, all unless given) */
                limit?: number;
                /** @description The last id of the previous page (from the Link header) */
                afterId?: number;
                /** @description Only websites whose name or URL (without the scheme) holds this text, any case */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Websites, by id */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListedWebsite"][];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWebsite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebsiteCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Website"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWebsites: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Websites as POST /api/websites takes them, each with an optional `checkConfig` as PATCH …/check-config takes it; each item is validated on its own, its errors named `items.<index>.<field>` */
                    items: (components["schemas"]["WebsiteBatchItem"] | {
                        [key: string]: unknown;
                    })[];
                    /**
                     * @description Validate and say what would be created; write nothing
                     * @default false
                     */
                    dryRun?: boolean;
                    /**
                     * @description Write the valid items even when others are invalid (default: nothing is written then)
                     * @default false
                     */
                    partial?: boolean;
                };
            };
        };
        responses: {
            /** @description How each item went, in the order sent */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebsiteBatchResult"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebsiteSummaries: {
        parameters: {
            query?: {
                /** @description One customer's websites (all of them); omitted: the organization's, a page at a time */
                customerId?: number;
                /** @description Only websites whose status is this now */
                status?: "unknown" | "up" | "degraded" | "down" | "maintenance" | "paused" | "cancelled" | "unmonitored";
                /** @description Websites per page (default 100 without customerId; with it, all unless given) */
                limit?: number;
                /** @description The last id of the previous page (from the Link header) */
                afterId?: number;
                /** @description Only websites whose name or URL (without the scheme) holds this text, any case */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Websites, by id */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebsiteSummary"][];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebsite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The website */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Website"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebsite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website publicId (UUID) */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateWebsite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website publicId (UUID) */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebsiteUpdate"];
            };
        };
        responses: {
            /** @description The updated website */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Website"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCheckConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The whole configuration */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckConfig"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateCheckConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckConfigUpdate"];
            };
        };
        responses: {
            /** @description The whole configuration */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckConfig"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebsiteStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The status */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebsiteStatus"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebsiteResults: {
        parameters: {
            query?: {
                from?: string;
                to?: string;
                limit?: number;
                cursor?: string;
                kind?: "http" | "dns" | "port" | "icmp" | "udp" | "grpc" | "websocket" | "smtp" | "imap" | "pop3";
                monitorId?: number;
            };
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of results; nextCursor is null on the last page */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResultPage"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getResultEvidence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
                /** @description The result’s id, 24 hexadecimal digits (from its list) */
                resultRef: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The evidence */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Evidence"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebsiteUptime: {
        parameters: {
            query?: {
                period?: "24h" | "7d" | "30d" | "90d";
            };
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Figures; uptimePercent is null before the first result */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Uptime"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebsiteIncidents: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Incidents */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncidentList"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listIncidents: {
        parameters: {
            query?: {
                /** @description true: unresolved only; false: resolved only */
                open?: "true" | "false";
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Incidents */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncidentList"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getIncident: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The incident’s id (a UUID) */
                incidentRef: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The incident */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncidentDetail"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getIncidentTimeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The incident’s id (a UUID) */
                incidentRef: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The steps, oldest first */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncidentTimeline"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    acknowledgeIncident: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The incident’s id (a UUID) */
                incidentRef: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    note?: string;
                };
            };
        };
        responses: {
            /** @description Acknowledged */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Incident"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    addIncidentNote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The incident’s id (a UUID) */
                incidentRef: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    text: string;
                    /**
                     * @description Shown on the status pages listing the website (the latest public note)
                     * @default false
                     */
                    public?: boolean;
                };
            };
        };
        responses: {
            /** @description The note */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncidentTimelineItem"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    withdrawIncidentPublicNote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The incident’s id (a UUID) */
                incidentRef: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Withdrawn */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    exportConfiguration: {
        parameters: {
            query?: {
                format?: "webmon-json" | "csv";
                customerId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export (a download: Content-Disposition names the file) */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Export"];
                    "text/csv; charset=utf-8": string;
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCustomerReport: {
        parameters: {
            query?: {
                from?: string;
                to?: string;
                format?: "json" | "csv" | "html" | "pdf";
                /** @description pdf (and html printed): the page size */
                paper?: "A4" | "Letter";
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report (csv and html as downloads named after the customer and period) */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientReport"];
                    "text/csv; charset=utf-8": string;
                    "text/html; charset=utf-8": string;
                    "application/pdf": string;
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listReportMailings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Newest first, at most 50 */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportMailing"][];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sendReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReportMailingRequest"];
            };
        };
        responses: {
            /** @description The mailing, after its first attempt */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportMailing"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The organization */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrganizationUpdate"];
            };
        };
        responses: {
            /** @description The organization as it is now */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOrganizationLogo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image as it was uploaded (base64), ready for a data: URL */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Logo"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putOrganizationLogo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LogoUpload"];
            };
        };
        responses: {
            /** @description The organization with its logo */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteOrganizationLogo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    startImport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ImportRequest"];
            };
        };
        responses: {
            /** @description The import, started */
            202: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Import"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The import */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Import"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMaintenanceWindows: {
        parameters: {
            query: {
                websiteId: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Windows, by id */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindow"][];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createMaintenanceWindow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaintenanceWindowCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindow"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMaintenanceWindow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The window */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindow"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteMaintenanceWindow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateMaintenanceWindow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaintenanceWindowUpdate"];
            };
        };
        responses: {
            /** @description The updated window */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindow"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMaintenanceOccurrences: {
        parameters: {
            query?: {
                from?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The occurrences */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceOccurrences"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    previewMaintenanceWindow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaintenancePreviewRequest"];
            };
        };
        responses: {
            /** @description The occurrences, in order */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenancePreview"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    checkMaintenance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                websiteId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The active occurrence, if any */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceCheck"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    checkMaintenanceBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaintenanceCheckBatchRequest"];
            };
        };
        responses: {
            /** @description One result per id, in request order */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceCheckBatch"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listNotificationChannels: {
        parameters: {
            query?: {
                /** @description Only channels scoped to this customer */
                customerId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Channels, by id */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"][];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChannelCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedChannel"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChannelUpdate"];
            };
        };
        responses: {
            /** @description The updated channel */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rotateNotificationChannelSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret, shown this once */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedSecret"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    testNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, pending */
            202: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listNotificationDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                /** @description nextCursor of the previous page */
                cursor?: number;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries; nextCursor is null on the last page */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Delivery"][];
                        nextCursor: number | null;
                    };
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getNotificationDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                deliveryId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    redeliverNotification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                deliveryId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, pending again */
            202: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebsiteMonitors: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description By id */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Monitor"][];
                    };
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MonitorCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Monitor"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createHeartbeat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["HeartbeatCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Heartbeat"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    previewHeartbeat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["HeartbeatPreviewRequest"];
            };
        };
        responses: {
            /** @description The next expected pings */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HeartbeatPreview"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createDnsCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DnsCheckCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DnsCheck"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    acceptDnsChange: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Learned */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DnsCheck"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createPortCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website publicId (UUID) or integer id */
                websiteRef: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PortCheckCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortCheck"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listHeartbeatPings: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Newest first */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["HeartbeatPing"][];
                    };
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The monitor */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Monitor"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProbeCheckUpdate"];
            };
        };
        responses: {
            /** @description Changed */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Monitor"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMonitorUptime: {
        parameters: {
            query?: {
                period?: "24h" | "7d" | "30d" | "90d";
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Figures */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Uptime"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    runMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What the check found */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorRun"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMonitorResults: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Newest first */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["MonitorResult"][];
                    };
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listDnsCheckResults: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Newest first */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["MonitorResult"][];
                    };
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPortCheckResults: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Newest first */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["MonitorResult"][];
                    };
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getHeartbeat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The heartbeat */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Heartbeat"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteHeartbeat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateHeartbeat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["HeartbeatUpdate"];
            };
        };
        responses: {
            /** @description Changed */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Heartbeat"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getDnsCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The DNS check */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DnsCheck"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteDnsCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateDnsCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DnsCheckUpdate"];
            };
        };
        responses: {
            /** @description Changed */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DnsCheck"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getPortCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The port check */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortCheck"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deletePortCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updatePortCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PortCheckUpdate"];
            };
        };
        responses: {
            /** @description Changed */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortCheck"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pingGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingAccepted"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pingPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingAccepted"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pingStartGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingAccepted"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pingStartPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingAccepted"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pingFailGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingAccepted"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pingFailPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingAccepted"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pingExitCodeGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
                exitCode: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingAccepted"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pingExitCodePost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
                exitCode: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingAccepted"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMonitoringNodes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Active nodes */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        nodes: components["schemas"]["MonitoringNode"][];
                    };
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getFirewallAllowList: {
        parameters: {
            query?: {
                format?: "json" | "text";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allow-list */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date */
                        generated: string;
                        ips: string[];
                    };
                    "text/plain; charset=utf-8": string;
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listStatusPages: {
        parameters: {
            query?: {
                /** @description Only the pages of this customer */
                customerId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Status pages */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusPage"][];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createStatusPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StatusPageCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusPage"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getStatusPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The status page */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusPage"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteStatusPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateStatusPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StatusPageUpdate"];
            };
        };
        responses: {
            /** @description The updated status page */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusPage"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state */
            409: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getStatusPageData: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The status page’s slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page’s data */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicStatusPage"];
                };
            };
            /** @description Unchanged since the ETag sent in If-None-Match */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    viewStatusPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The status page’s slug */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Unchanged since the ETag sent in If-None-Match */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No public page by that slug: a page saying so */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getStatusBadge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website’s publicId (the website must be on a public status page) */
                publicId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The badge */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "image/svg+xml; charset=utf-8": string;
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMonitorsBadge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The website’s publicId (the website must be on a public status page) */
                publicId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The badge */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "image/svg+xml; charset=utf-8": string;
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getUptimeBadge: {
        parameters: {
            query?: {
                period?: "24h" | "7d" | "30d" | "90d";
            };
            header?: never;
            path: {
                /** @description The website’s publicId (the website must be on a public status page) */
                publicId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The badge */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "image/svg+xml; charset=utf-8": string;
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                /** @description Events at or after this time */
                from?: string;
                /** @description Events at or before this time */
                to?: string;
                /** @description Only events of the user or token with this id (see actorType) */
                actorId?: number;
                /** @description With actorId: only a user’s (`user`) or only a token’s (`token`) events; omitted, both */
                actorType?: "user" | "token";
                /** @description Only events of this resource kind (`websites`, `customers`, `auth`…) */
                resource?: string;
                /** @description The previous page’s nextCursor */
                cursor?: string;
                /** @description Events per page, at most 200; 50 by default */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit events */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventPage"];
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebsiteOverview: {
        parameters: {
            query?: {
                /** @description The last website id of the previous page */
                afterId?: number;
                /** @description Websites per answer (100) */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The websites, by id */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["WebsiteOverview"][];
                        nextAfterId: number | null;
                    };
                };
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, unknown or revoked token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the package lacks the feature */
            403: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageRoot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageSignIn: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageAcceptInvitation: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageResetPassword: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageAccount: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageCustomers: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageCustomersId: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageCustomersIdReport: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageWebsitesRef: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path: {
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageWebsitesRefEdit: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path: {
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageMaintenance: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageChannels: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageChannelsRef: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path: {
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageStatusPages: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageStatusPagesRef: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path: {
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPagePackages: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPagePeople: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageAudit: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageSettings: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageIncidents: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageIncidentsRef: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path: {
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appPageImports: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app’s index.html */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MongoDB or Redis unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript; charset=utf-8": string;
                };
            };
            /** @description Not modified (the ETag matched) */
            304: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed; `errors` names each field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unknown id, or an id of another organization */
            404: {
                headers: {
                    "x-request-id": components["headers"]["x-request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}

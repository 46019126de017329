import { includesFeature } from '../../../packages/index.js';
import { defineProbeKind } from '../probe-kind.js';
import { apiFlowEvidence } from './api-flow.evidence.js';
import { reportedTls } from './api-flow.observation.js';
import { probeApiFlow } from './api-flow.probe.js';
import { apiFlowFields, apiFlowSettings, writtenTarget } from './api-flow.schema.js';
import { apiFlowVerdict } from './api-flow.verdict.js';

export const apiFlowKind = defineProbeKind({
  kind: 'api-flow',
  noun: 'API flow',
  feature: 'apiFlows',
  limit: 'maxApiFlowsPerWebsite',
  // Several requests one after another, each up to the flow's timeout: seconds by design, as journeys are.
  lane: 'slow',
  description:
    'HTTP requests made in order as one journey (sign in, then read the account): each step’s `request` (method, URL, headers, body, redirects) sent through the SSRF guard with the cookies earlier steps were set and the flow’s client certificate, its answer held to `expectedStatusCodes` and `assertions` (as a website’s), then values `extract`ed from it (a JSONPath of the JSON body, a header, an RE2 capture of the body) for later steps as {{name}}, beside `variables` and `secrets` ({{secret.NAME}}: sealed, shown as "(set)", blanked in evidence and alerts). The first step that fails stops the run, down, named with its request and answer; a value to extract that is missing is named. A placeholder that names no variable, secret or earlier extraction is refused when written, naming `steps.<i>.<field>`. Package feature `apiFlows`, limits `maxApiFlowsPerWebsite` and `maxStepsPerJourney`.',
  sealedRecords: ['secrets'],
  secretRecords: ['secrets'],
  fields: apiFlowFields,
  settings: apiFlowSettings,
  // The host a report names: its first step's (where known when written); the guard judges every step's (`targetsOf`).
  hostOf: (s) => {
    const first = s.steps[0];
    return first ? (writtenTarget(first.request.url, s.variables)?.host ?? null) : null;
  },
  targetsOf: (s) =>
    s.steps.flatMap((step, index) => {
      const target = writtenTarget(step.request.url, s.variables);
      return target ? [{ ...target, path: `steps.${index}.request.url` }] : [];
    }),
  packageProblems: (s, pkg) => [
    ...(s.steps.length > pkg.limits.maxStepsPerJourney
      ? [
          {
            path: 'steps',
            message: `has ${s.steps.length} steps; the package allows ${pkg.limits.maxStepsPerJourney} (limits.maxStepsPerJourney)`,
          },
        ]
      : []),
    ...(s.clientCertificate && !includesFeature(pkg, 'mtls')
      ? [{ path: 'clientCertificate', message: 'client certificates need the mtls feature' }]
      : []),
  ],
  defaultName: (s) => {
    const first = s.steps[0];
    const target = first ? writtenTarget(first.request.url, s.variables) : null;
    return `API flow${target ? ` ${target.host}` : ''}: ${s.steps.map((step) => step.name).join(' → ')}`.slice(
      0,
      200,
    );
  },
  probe: probeApiFlow,
  verdict: (_s, seen) => apiFlowVerdict(seen),
  evidence: apiFlowEvidence,
  timings: (seen) => ({
    ...Object.fromEntries(seen.steps.map((step) => [`step${step.index + 1}Ms`, step.durationMs])),
    totalMs: seen.totalMs,
  }),
  tls: reportedTls,
});

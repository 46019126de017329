/** A failing run's screenshot (a browser journey's page at its failing step): its run and name. */
export interface RunScreenshot {
  runId: string;
  name: string;
}

/**
 * A run's screenshot as the API serves it (the app has no page of a run of its own): a person
 * signed in to the app opens it from an alert or an incident (the session cookie goes with it),
 * anyone else is asked to sign in; a client user sees its own customer's only.
 */
export function runScreenshotPath(websitePublicId: string, shot: RunScreenshot): string {
  const path = `/api/websites/${encodeURIComponent(websitePublicId)}/results/${encodeURIComponent(shot.runId)}/screenshot`;
  return shot.name === 'failure' ? path : `${path}?name=${encodeURIComponent(shot.name)}`;
}

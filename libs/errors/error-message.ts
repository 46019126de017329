/** What went wrong, as text: an error's message, or whatever else was thrown or rejected with. */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

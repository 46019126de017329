import { incomingWebhook } from './incoming-webhook.js';
import { teamsCard } from './teamsworkflows.js';

/** Microsoft Teams as channels made before `teamsworkflows` have it: the same Workflows message. */
export const teams = incomingWebhook(
  'Microsoft Teams',
  'A Workflows (Power Automate) webhook URL; write-only',
  teamsCard,
);

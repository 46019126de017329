import { alertGroupIndexes, deliveryIndexes, owedAttemptIndexes } from '../alerts/index.js';
import { apiTokenIndexes, organizationIndexes } from '../auth/index.js';
import { contactMethodIndexes } from '../contact-methods/index.js';
import { customerIndexes } from '../customers/index.js';
import type { CollectionIndexes } from '../db/index.js';
import { dependencyIndexes } from '../dependencies/index.js';
import { ackLinkIndexes, policyIndexes, runIndexes } from '../escalation/index.js';
import { eventIndexes } from '../events/index.js';
import { maintenanceWindowIndexes } from '../maintenance/index.js';
import {
  checkResultIndexes,
  monitoringIndexes,
  rollupIndexes,
  rollupMonthIndexes,
} from '../monitoring/index.js';
import { monitorIndexes, runArtifactIndexes } from '../monitors/index.js';
import { monitoringNodeIndexes } from '../nodes/index.js';
import { channelIndexes } from '../notifications/index.js';
import { onCallScheduleIndexes } from '../oncall/index.js';
import { packageIndexes } from '../packages/index.js';
import { invitationIndexes, userIndexes } from '../people/index.js';
import { reportMailingIndexes } from '../reports/index.js';
import { scimStoreIndexes, scimTokenIndexes } from '../scim/index.js';
import { lighthouseRunIndexes, siteFindingIndexes, siteHealthSummaryIndexes } from '../site-health/index.js';
import { statusPageIndexes } from '../status-pages/index.js';
import { statusPostIndexes } from '../status-posts/index.js';
import { noticeIndexes, subscriberIndexes } from '../status-subscriptions/index.js';
import { websiteIndexes } from '../websites/index.js';
import { storedNamesCleaning } from './stored-names.js';

/** Every collection's indexes, created at start by each process. */
export const ALL_INDEXES: readonly CollectionIndexes[] = [
  organizationIndexes,
  apiTokenIndexes,
  userIndexes,
  invitationIndexes,
  monitoringNodeIndexes,
  packageIndexes,
  customerIndexes,
  websiteIndexes,
  checkResultIndexes,
  rollupIndexes,
  rollupMonthIndexes,
  statusPageIndexes,
  statusPostIndexes,
  subscriberIndexes,
  noticeIndexes,
  ...monitoringIndexes,
  ...monitorIndexes,
  runArtifactIndexes,
  siteFindingIndexes,
  lighthouseRunIndexes,
  siteHealthSummaryIndexes,
  eventIndexes,
  maintenanceWindowIndexes,
  channelIndexes,
  ...deliveryIndexes,
  owedAttemptIndexes,
  reportMailingIndexes,
  contactMethodIndexes,
  onCallScheduleIndexes,
  policyIndexes,
  ...runIndexes,
  ackLinkIndexes,
  ...dependencyIndexes,
  ...alertGroupIndexes,
  scimTokenIndexes,
  ...scimStoreIndexes,
  // Last: it reads the named collections.
  storedNamesCleaning,
];

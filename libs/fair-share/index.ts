export { MailBudget, type MailBudgetOptions, type MailPurpose } from './mail-budget.js';
export { OrganizationShare, type OrganizationShareOptions, type ShareSlot } from './organization-share.js';

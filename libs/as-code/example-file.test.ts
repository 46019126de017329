import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMonitoringFile } from './monitoring-file.js';
import { planChanges } from './plan.js';
import { planText } from './plan-text.js';

describe('docs/examples/monitoring.yaml', () => {
  it('is a valid monitoring file that plans into an empty organization', () => {
    const text = readFileSync('docs/examples/monitoring.yaml', 'utf8');
    const file = readMonitoringFile(text, {
      ACME_API_KEY: 'key',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.test/x',
    });
    const plan = planChanges(
      file,
      {
        format: 'webmon',
        version: 1,
        exportedAt: '2026-11-25T00:00:00.000Z',
        customerId: null,
        packages: [],
        customers: [],
        websites: [],
        maintenanceWindows: [],
        channels: [],
        statusPages: [],
      },
      { prune: false, createOnly: false },
    );
    expect(planText(plan)).toContain('Plan: 8 to create, 0 to change, 0 to delete (0 unchanged).');
  });
});

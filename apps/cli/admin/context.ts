import type { Db } from 'mongodb';
import type { ApiTokenRepository, OrganizationRepository } from '../../../libs/auth/index.js';
import type { AppConfig } from '../../../libs/config/index.js';
import type { CommandLine } from './command-line.js';

/** What every command is run with: the database, the configuration and the command line's values. */
export interface AdminContext {
  db: Db;
  config: AppConfig;
  values: CommandLine['values'];
  organizations: OrganizationRepository;
  tokens: ApiTokenRepository;
  /** The organization `--org` names (a usage error without it, an error when there is none). */
  requireOrganization(raw: string | undefined): Promise<number>;
}

/** A command: prints its results (one JSON line each), throws what went wrong. */
export type AdminCommand = (context: AdminContext) => Promise<void>;

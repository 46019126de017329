export {
  type MappedRole,
  type RoleDecision,
  type RoleMappingRule,
  type RoleOptions,
  resolveRole,
  roleMapping,
  roleMappingRule,
  ruleMatches,
  type SsoIdentity,
} from './role-mapping.js';

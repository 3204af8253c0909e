import { AccountId, isUuid } from '@leadflow/shared-kernel';
import type { SystemView, TeamMemberView } from '@leadflow/accounts-contracts';
import type { StageView } from '@leadflow/pipeline-contracts';
import type { LeadAssignmentStatus } from '@leadflow/contacts-contracts';
import { LeadCaptureRejectedError, SystemNotFoundError } from '../../../domain/contacts.errors';
import { leadAttribution } from '../../../domain/lead-capture/lead-attribution';
import type { ParsedLead } from '../../../domain/lead-capture/lead-capture-input';
import { resolveLeadCustomFields } from '../../../domain/lead-capture/lead-custom-fields';
import type { LeadContactData, LeadPlacement } from '../../../domain/lead-capture/lead-enrichment';
import type { TagState } from '../../ports/tag.repository.port';
import { LeadCaptureSettings, PipelineDirectory } from '../../ports/lead-capture-settings.port';

/** What the request resolved to before any write (rules that need the account's settings). */
export interface ResolvedRequest {
  lead: ParsedLead;
  /** Lead capture always has a phone. */
  data: LeadContactData & { phone: string };
  placement: LeadPlacement;
  stage: StageView | null;
  systemId: string;
  assignment: LeadAssignmentStatus;
  /** Every stage of the account by id: the current stage of an existing contact is looked up here. */
  stages: ReadonlyMap<string, StageView>;
  /** The lead's tags that exist already, by name (the others are created on the fly). */
  knownTags: ReadonlyMap<string, TagState>;
}

/**
 * Lead capture's resolution, before any write: the account settings the parsed lead names, read from
 * {@link LeadCaptureSettings} (Systems, pipelines and stages, team members when a sales rep is named,
 * custom-field definitions when custom fields are sent, the lead's existing tags by name; all in
 * parallel), resolved to the System (rule 6: 422 `system_not_found`; inactive → main,
 * `system_not_active`), the stage (rule 5: 422 `pipeline_not_found` / `stage_not_found`, simplified),
 * the sales rep (`sales_rep_not_found`, ignored) and the custom fields by name. Reads only; the
 * ignored fields found are added to `lead.ignored`.
 */
export async function resolveLeadCapture(settings: LeadCaptureSettings, accountId: AccountId, lead: ParsedLead): Promise<ResolvedRequest> {
  const wantsRep = lead.pipeline.salesRepEmail !== null;
  const wantsFields = Object.keys(lead.customFields).length > 0;
  const [systems, directory, members, definitions, tags] = await Promise.all([
    settings.systems(accountId),
    settings.pipelines(accountId),
    wantsRep ? settings.teamMembers(accountId) : [],
    wantsFields ? settings.customFieldDefinitions(accountId) : [],
    lead.tags.length > 0 ? settings.tagsNamed(accountId, lead.tags) : [],
  ]);
  const systemId = systemFor(systems, lead);
  const stage = stageFor(directory, lead);
  const { salesRepId, assignment } = salesRepFor(members, lead);
  const customFields = wantsFields ? resolveLeadCustomFields(definitions, lead.customFields, lead.ignored) : {};
  const data: LeadContactData & { phone: string } = {
    firstName: lead.firstName,
    lastName: lead.lastName,
    email: lead.email,
    phone: lead.phone,
    customFields,
    address: lead.address,
    attribution: leadAttribution(lead.utm, lead.gclid, lead.adsConsent),
    sourceLabel: lead.sourceLabel,
    notes: lead.notes,
  };
  const placement: LeadPlacement = {
    pipelineId: stage?.pipelineId ?? null,
    stageId: stage?.id ?? null,
    dealValueCents: lead.pipeline.dealValueCents,
    expectedCloseDate: lead.pipeline.expectedCloseDate,
    salesRepId,
    sent: lead.pipeline.sent.filter((member) => member !== 'assigned_sales_rep_email' || salesRepId !== null),
  };
  return {
    lead,
    data,
    placement,
    stage,
    systemId,
    assignment,
    stages: new Map(directory.stages.map((item) => [item.id, item])),
    knownTags: new Map(tags.map((tag) => [tag.name, tag])),
  };
}

/** Rule 6: unknown → 422 `system_not_found` (standard envelope); inactive → the main System, `system_not_active`; omitted → main. */
function systemFor(systems: readonly SystemView[], lead: ParsedLead): string {
  const main = systems.find((system) => system.isMain) ?? systems.find((system) => system.isActive) ?? systems[0];
  const requested = lead.systemId;
  if (requested === undefined || requested === null || requested === '') {
    if (!main) throw new SystemNotFoundError();
    return main.id;
  }
  const wanted = isUuid(requested) ? systems.find((system) => system.id.toLowerCase() === requested.toLowerCase()) : undefined;
  if (!wanted) throw new SystemNotFoundError();
  if (wanted.isActive || !main) return wanted.id;
  lead.ignored.add('system_id', 'system_not_active');
  return main.id;
}

/**
 * Rule 5: the stage named (or the default one) in the pipeline named (or the default one); null when
 * the account has no default pipeline or it has no default stage. 422 `pipeline_not_found` /
 * `stage_not_found` (simplified) for a slug that names nothing. Slugs compare exactly.
 */
function stageFor(directory: PipelineDirectory, lead: ParsedLead): StageView | null {
  const { pipelineSlug, stageSlug } = lead.pipeline;
  const pipeline = directory.pipelines.find((item) => (pipelineSlug === null ? item.isDefault : item.slug === pipelineSlug)) ?? null;
  const stage = pipeline
    ? directory.stages.find((item) => item.pipelineId === pipeline.id && (stageSlug === null ? item.isDefault : item.slug === stageSlug))
    : undefined;
  if (stage) return stage;
  if (pipelineSlug !== null && !pipeline) {
    throw new LeadCaptureRejectedError('pipeline_not_found', `No pipeline "${pipelineSlug.slice(0, 120)}" in this account.`, [
      { field: 'pipeline.pipeline_slug', reason: 'not_found' },
    ]);
  }
  if (stageSlug !== null) {
    const where = pipeline ? `pipeline "${pipeline.slug}"` : 'the default pipeline';
    throw new LeadCaptureRejectedError('stage_not_found', `No stage "${stageSlug.slice(0, 120)}" in ${where}.`, [
      { field: 'pipeline.stage_slug', reason: 'not_found' },
    ]);
  }
  return null; // no default pipeline (or a pipeline without stages): the lead is captured without a stage
}

/** The sales rep named by email (case-insensitive), active and a sales rep; else ignored with `sales_rep_not_found`. */
function salesRepFor(members: readonly TeamMemberView[], lead: ParsedLead): { salesRepId: string | null; assignment: LeadAssignmentStatus } {
  const email = lead.pipeline.salesRepEmail;
  if (email === null) return { salesRepId: null, assignment: 'unassigned' };
  const rep = members.find((member) => member.email.toLowerCase() === email && member.isActive && member.isSalesRep);
  if (rep) return { salesRepId: rep.id, assignment: 'assigned' };
  lead.ignored.add('pipeline.assigned_sales_rep_email', 'sales_rep_not_found');
  return { salesRepId: null, assignment: 'sales_rep_not_found' };
}

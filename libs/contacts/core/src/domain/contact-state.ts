import type { CustomFieldValue } from '@leadflow/contacts-contracts';
import type { AccountId } from '@leadflow/shared-kernel';

/** Postal address parts, completed by lead capture without overwriting filled values. */
export interface ContactAddress {
  address: string | null;
  postalCode: string | null;
  addressPlaceId: string | null;
  street: string | null;
  city: string | null;
  sector: string | null;
  province: string | null;
  country: string | null;
}

export const EMPTY_ADDRESS: ContactAddress = {
  address: null,
  postalCode: null,
  addressPlaceId: null,
  street: null,
  city: null,
  sector: null,
  province: null,
  country: null,
};

/** Everything stored about a contact (one row of `contacts.contacts`). A deal is a contact whose `stageId` is set. */
export interface ContactState {
  id: string;
  accountId: AccountId;
  firstName: string | null;
  lastName: string | null;
  /** Primary email, lowercase. */
  email: string | null;
  /** Primary phone, E.164. */
  phone: string | null;
  company: string | null;
  /** CAD cents, positive. */
  dealValueCents: number | null;
  /** Keyed by definition id. */
  customFields: Record<string, CustomFieldValue>;
  isPriority: boolean;
  notes: string | null;
  /** `api`, `lead_capture`, `operator`… */
  source: string;
  systemId: string;
  pipelineId: string | null;
  stageId: string | null;
  salesRepId: string | null;
  /** First-touch attribution (utm, gclid) kept by lead capture. */
  attribution: Record<string, unknown>;
  addressParts: ContactAddress;
  /** Free-form source label of the first capture (`source_label`), shown in pipeline and activity log. */
  sourceLabel: string | null;
  /** Expected close date of the deal, `YYYY-MM-DD` (lead capture's pipeline block). */
  expectedCloseDate: string | null;
  archivedAt: Date | null;
  /** Set when absorbed by a merge: the survivor's id. */
  mergedIntoId: string | null;
  mergedAt: Date | null;
  disqualifiedAt: Date | null;
  /**
   * Lead score, 0–100 (domain/lead-score): set at creation from what the creation knows, then
   * recomputed by the worker's `lead-score` consumer. Never written by the contact's updates.
   */
  score: number;
  /** When the score's recency part next drops (the worker recomputes it then), or null. */
  scoreReviewAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

import { IsDefined, IsObject, IsOptional, IsString, IsUUID } from 'class-validator';

/** Largest `event_data` accepted, serialised as JSON (bytes). */
export const MAX_EVENT_DATA_BYTES = 16 * 1024;

/**
 * Body of `POST /v1/automations/{id}/trigger`: `contact_id` (required UUID; 400 `validation_error`
 * `required` / `invalid_format`), `event_data` (optional JSON object, default `{}`; `invalid_type`
 * otherwise, `too_large` beyond 16 KiB). Unknown fields: 400 `unknown_field`.
 */
export class TriggerAutomationDto {
  @IsDefined() @IsString() @IsUUID('all') contact_id!: string;
  @IsOptional() @IsObject() event_data?: Record<string, unknown>;
}

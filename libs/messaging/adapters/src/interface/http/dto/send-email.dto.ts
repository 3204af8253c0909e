import { IsBoolean, IsDefined, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** `to` pattern of public-api-v1 › Endpoints › Emails. */
export const EMAIL_TO_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Longest `subject` accepted (before the `[TEST] ` prefix and variables). */
export const SEND_SUBJECT_MAX_LENGTH = 255;
/** Longest HTML `body` accepted (characters, before sanitisation). */
export const SEND_BODY_MAX_LENGTH = 100_000;

/**
 * Body of `POST /v1/emails/send`. Every breach is 400 `validation_error` with `details`
 * `[{ field, reason }]`: `required`, `invalid_type`, `invalid_format` (`to` outside the pattern),
 * `too_long`, `unknown_field`.
 */
export class SendEmailDto {
  @IsDefined() @IsString() @MaxLength(320) @Matches(EMAIL_TO_PATTERN) to!: string;
  @IsDefined() @IsString() @IsNotEmpty() @MaxLength(SEND_SUBJECT_MAX_LENGTH) subject!: string;
  @IsDefined() @IsString() @IsNotEmpty() @MaxLength(SEND_BODY_MAX_LENGTH) body!: string;
  @IsOptional() @IsBoolean() test?: boolean;
}

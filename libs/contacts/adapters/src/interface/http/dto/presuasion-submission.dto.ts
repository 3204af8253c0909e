import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsNumber,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { PRESUASION_LIMITS, PresuasionSubmissionInput } from '@leadflow/contacts-core';
import { Nullable } from '@leadflow/shared-platform';

/**
 * Body of `POST /v1/presuasion/submissions` (OpenAPI `PresuasionSubmissionInput`). Types, lengths and
 * unknown members (at any depth) are checked here: 400 `validation_error`, reasons `required`,
 * `invalid_type`, `too_long`, `too_few`, `too_many`, `invalid_format`, `unknown_field`. Members that
 * take several types (`person.phone`, `consent.*`, `answers[].answer`) and every rule are the domain's
 * (`parsePresuasionSubmission`). The type decorator comes first so a wrong type reports `invalid_type`.
 */
export class PresuasionToolDto {
  @IsString() @MaxLength(100) @IsDefined() slug!: string;
  @IsString() @MaxLength(200) @IsDefined() name!: string;
}

export class PresuasionAnswerDto {
  @IsString() @MaxLength(PRESUASION_LIMITS.questionId) @Nullable() question_id?: string | null;
  @IsString() @MaxLength(PRESUASION_LIMITS.question) @IsDefined() question!: string;
  /** Text, number, boolean, list of texts or null: checked by the domain. */
  @Allow() @Nullable() answer?: unknown;
  @IsNumber({ allowNaN: false, allowInfinity: false }) @Nullable() score?: number | null;
}

export class PresuasionPersonDto {
  @IsString() @MaxLength(320) @Nullable() email?: string | null;
  /** A string or a positive integer (lead capture's phone): checked by the domain. */
  @Allow() @Nullable() phone?: unknown;
  @IsString() @MaxLength(200) @Nullable() first_name?: string | null;
  @IsString() @MaxLength(200) @Nullable() last_name?: string | null;
  /** A BCP 47 language tag such as `fr`, `en` or `fr-CA`. */
  @IsString() @MaxLength(35) @Matches(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/) @Nullable() language?: string | null;
}

export class PresuasionConsentDto {
  /** `true` / `false` or a consent word (lead capture's values, and their refusals): checked by the domain. */
  @Allow() @Nullable() sms?: unknown;
  @Allow() @Nullable() email?: unknown;
  @Allow() @Nullable() ads?: unknown;
}

export class PresuasionUtmDto {
  @IsString() @MaxLength(500) @Nullable() source?: string | null;
  @IsString() @MaxLength(500) @Nullable() medium?: string | null;
  @IsString() @MaxLength(500) @Nullable() campaign?: string | null;
  @IsString() @MaxLength(500) @Nullable() term?: string | null;
  @IsString() @MaxLength(500) @Nullable() content?: string | null;
}

export class PresuasionAttributionDto {
  @IsObject() @ValidateNested() @Type(() => PresuasionUtmDto) @Nullable() utm?: PresuasionUtmDto | null;
  @IsString() @MaxLength(500) @Nullable() gclid?: string | null;
  @IsString() @MaxLength(PRESUASION_LIMITS.url) @Nullable() page_url?: string | null;
  @IsString() @MaxLength(PRESUASION_LIMITS.url) @Nullable() referrer?: string | null;
}

export class PresuasionSubmissionDto {
  @IsObject() @ValidateNested() @Type(() => PresuasionToolDto) @IsDefined() tool!: PresuasionToolDto;
  @IsString() @MaxLength(PRESUASION_LIMITS.formId) @Nullable() form_id?: string | null;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(PRESUASION_LIMITS.answers)
  @ValidateNested({ each: true })
  @Type(() => PresuasionAnswerDto)
  @IsDefined()
  answers!: PresuasionAnswerDto[];
  @IsNumber({ allowNaN: false, allowInfinity: false }) @Nullable() score?: number | null;
  @IsString() @MaxLength(PRESUASION_LIMITS.outcome) @Nullable() outcome?: string | null;
  @IsObject() @ValidateNested() @Type(() => PresuasionPersonDto) @IsDefined() person!: PresuasionPersonDto;
  @IsObject() @ValidateNested() @Type(() => PresuasionConsentDto) @Nullable() consent?: PresuasionConsentDto | null;
  @IsObject() @ValidateNested() @Type(() => PresuasionAttributionDto) @Nullable() attribution?: PresuasionAttributionDto | null;
  /** ISO 8601 with an offset: checked by the domain (`invalid_datetime`, `out_of_range`). */
  @IsString() @MaxLength(40) @Nullable() submitted_at?: string | null;

  /** The domain's input (camelCase). */
  toInput(): PresuasionSubmissionInput {
    return {
      tool: { slug: this.tool.slug, name: this.tool.name },
      formId: this.form_id,
      answers: this.answers.map((item) => ({ questionId: item.question_id, question: item.question, answer: item.answer, score: item.score })),
      score: this.score,
      outcome: this.outcome,
      person: {
        email: this.person.email,
        phone: this.person.phone,
        firstName: this.person.first_name,
        lastName: this.person.last_name,
        language: this.person.language,
      },
      consent: this.consent ? { sms: this.consent.sms, email: this.consent.email, ads: this.consent.ads } : null,
      attribution: this.attribution
        ? {
            utm: this.attribution.utm ? { ...this.attribution.utm } : null,
            gclid: this.attribution.gclid,
            pageUrl: this.attribution.page_url,
            referrer: this.attribution.referrer,
          }
        : null,
      submittedAt: this.submitted_at,
    };
  }
}

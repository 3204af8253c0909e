import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsEmail, IsIn, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { AUTHOR_KINDS, CONVERSATION_ROLES, ConversationSpec } from '@leadflow/messaging-contracts';
import { Nullable } from '@leadflow/shared-platform';

/** Blueprint `conversations[].messages[]`: `content` may hold the pacing markers `[[pause]]` / `[[pause:<ms>]]`. */
export class ConversationMessageBlueprintDto {
  @IsDefined() @IsIn(CONVERSATION_ROLES) role!: (typeof CONVERSATION_ROLES)[number];
  @IsDefined() @IsIn(AUTHOR_KINDS) author_kind!: (typeof AUTHOR_KINDS)[number];
  @IsDefined() @IsString() @MaxLength(20_000) content!: string;
  /** The rep's first name (sales_rep messages). */
  @Nullable() @IsString() @MinLength(1) @MaxLength(100) author_name?: string | null;
}

/** Blueprint `conversations[]` (operator-api › POST /admin/v1/accounts): the response lists the ids in order. */
export class ConversationBlueprintDto {
  @Nullable() @IsString() @MinLength(1) @MaxLength(200) agent_slug?: string | null;
  @Nullable() @IsString() @MinLength(1) @MaxLength(200) agent_identity_id?: string | null;
  @Nullable() @IsString() @MinLength(1) @MaxLength(200) source?: string | null;
  @Nullable() @IsEmail() @MaxLength(320) contact_email?: string | null;
  @IsDefined() @IsArray() @ArrayMaxSize(500) @ValidateNested({ each: true }) @Type(() => ConversationMessageBlueprintDto) messages!: ConversationMessageBlueprintDto[];
}

export function toConversationSpec(dto: ConversationBlueprintDto): ConversationSpec {
  return {
    agentSlug: dto.agent_slug ?? null,
    agentIdentityId: dto.agent_identity_id ?? null,
    source: dto.source ?? null,
    contactEmail: dto.contact_email ?? null,
    messages: dto.messages.map((message) => ({
      role: message.role,
      authorKind: message.author_kind,
      content: message.content,
      authorName: message.author_name ?? null,
    })),
  };
}

import { divideHalfUp, FieldViolation, toScaled, ValidationFailedError } from '@leadflow/shared-kernel';
import type { PaymentDepositType, PaymentExecutionMode, PaymentPlanType } from '@leadflow/quotes-contracts';
import { QUOTE_LIMITS, QuotePatch } from './quote-input.rules';
import type { QuoteState } from './quote-state';

/** The payment plan fields of a quote. */
export type PaymentPlan = Pick<
  QuoteState,
  'paymentPlanType' | 'paymentDepositType' | 'paymentDepositValue' | 'paymentInstallmentsCount' | 'paymentIntervalDays' | 'paymentExecutionMode'
>;

/**
 * The payment plan after a PATCH (a new plan type starts from empty plan fields), checked for
 * consistency: 400 `validation_error` "The payment plan fields are inconsistent." otherwise.
 */
export function nextPaymentPlan(state: Readonly<QuoteState>, patch: QuotePatch): PaymentPlan {
  const type = (patch.paymentPlanType ?? state.paymentPlanType) as PaymentPlanType;
  const fresh = patch.paymentPlanType !== undefined && patch.paymentPlanType !== state.paymentPlanType;
  const keep = <T>(given: T | undefined, current: T | null): T | null => (given !== undefined ? given : fresh ? null : current);
  const depositType = keep(patch.paymentDepositType as PaymentDepositType | null | undefined, state.paymentDepositType);
  const depositValue =
    patch.paymentDepositValue !== undefined
      ? patch.paymentDepositValue === null
        ? null
        : Number(toScaled(patch.paymentDepositValue, 2))
      : fresh
        ? null
        : state.paymentDepositValue;
  const installmentsCount = keep(patch.paymentInstallmentsCount, state.paymentInstallmentsCount);
  const intervalDays = keep(patch.paymentIntervalDays, state.paymentIntervalDays);
  const violations: FieldViolation[] = [];
  const mustBeNull = (field: string, value: unknown, why: string) => {
    if (value !== null) violations.push({ field, reason: 'invalid_value', message: `${field} must be null ${why}.` });
  };
  const required = (field: string, value: unknown) => {
    if (value === null) violations.push({ field, reason: 'required', message: `${field} is required by payment_plan_type ${type}.` });
  };
  if (type === 'full' || type === 'installments') {
    mustBeNull('payment_deposit_type', depositType, `with payment_plan_type ${type}`);
    mustBeNull('payment_deposit_value', depositValue, `with payment_plan_type ${type}`);
  }
  if (type === 'full' || type === 'deposit') {
    mustBeNull('payment_installments_count', installmentsCount, `with payment_plan_type ${type}`);
    mustBeNull('payment_interval_days', intervalDays, `with payment_plan_type ${type}`);
  }
  if (type === 'deposit') {
    required('payment_deposit_type', depositType);
    required('payment_deposit_value', depositValue);
    if (depositValue !== null && depositValue <= 0) {
      violations.push({ field: 'payment_deposit_value', reason: 'out_of_range', message: 'payment_deposit_value must be more than 0.' });
    } else if (depositType === 'percentage' && depositValue !== null && depositValue >= 10_000) {
      violations.push({ field: 'payment_deposit_value', reason: 'out_of_range', message: 'A percentage deposit is more than 0 and less than 100.' });
    } else if (depositType === 'fixed' && depositValue !== null && depositValue > QUOTE_LIMITS.maxFixedDeposit * 100) {
      violations.push({ field: 'payment_deposit_value', reason: 'out_of_range', message: `A fixed deposit is at most ${QUOTE_LIMITS.maxFixedDeposit} dollars.` });
    }
  }
  if (type === 'installments') {
    required('payment_installments_count', installmentsCount);
    required('payment_interval_days', intervalDays);
  }
  if (violations.length > 0) throw new ValidationFailedError(violations, 'The payment plan fields are inconsistent.');
  return {
    paymentPlanType: type,
    paymentDepositType: depositType,
    paymentDepositValue: depositValue,
    paymentInstallmentsCount: installmentsCount,
    paymentIntervalDays: intervalDays,
    paymentExecutionMode: (patch.paymentExecutionMode ?? state.paymentExecutionMode) as PaymentExecutionMode,
  };
}

/** The deposit in cents (percentage of the total rounded half-up, or the fixed amount). */
export function depositCents(state: Readonly<QuoteState>): number {
  const { paymentDepositType, paymentDepositValue, totalCents } = state;
  if (paymentDepositValue === null) return 0;
  if (paymentDepositType === 'percentage') return Number(divideHalfUp(BigInt(totalCents) * BigInt(paymentDepositValue), 10_000n));
  return paymentDepositValue;
}

/** The next payment due by the plan: the deposit then the balance, equal instalments with the last absorbing the rounding, or the total. */
export function nextPaymentCents(state: Readonly<QuoteState>): number {
  const { totalCents, amountPaidCents, paymentsCount, paymentPlanType, paymentInstallmentsCount } = state;
  const remaining = totalCents - amountPaidCents;
  if (paymentPlanType === 'deposit' && paymentsCount === 0) return Math.min(depositCents(state), remaining);
  if (paymentPlanType === 'installments' && paymentInstallmentsCount !== null && paymentsCount < paymentInstallmentsCount - 1) {
    return Math.min(Math.floor(totalCents / paymentInstallmentsCount), remaining);
  }
  return remaining;
}

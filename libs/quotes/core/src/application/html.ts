/**
 * Amounts for a language: `1 234,56 $` (fr-CA) or `$1,234.56` (en-CA). `maxDecimals` 4 is for unit
 * prices (`2,375 $`, never rounded for display: they carry at most 4 decimals); amounts keep 2.
 */
export function formatCad(dollars: number, language: 'fr' | 'en', maxDecimals: 2 | 4 = 2): string {
  return new Intl.NumberFormat(language === 'fr' ? 'fr-CA' : 'en-CA', {
    style: 'currency',
    currency: 'CAD',
    minimumFractionDigits: 2,
    maximumFractionDigits: maxDecimals,
  }).format(dollars);
}

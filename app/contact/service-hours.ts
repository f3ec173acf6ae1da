/** When the store answers the phone, chat and email. */
export const SERVICE_HOURS = "Monday to Friday, 8am to 6pm CT";

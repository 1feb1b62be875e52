export { addressKey, isPlainAddress, plainDeliver } from './address.js';
export {
  type DeliveryState,
  EMAIL_JOB,
  type EmailBudget,
  EmailDelivery,
  type EmailRequest,
} from './delivery.js';
export {
  createEmailSendHandler,
  emailJobOptions,
} from './send-job.js';
export {
  createEmailSender,
  type EmailSender,
} from './sender.js';

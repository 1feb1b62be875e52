export {
  type DeliveryState,
  EMAIL_JOB,
  type EmailBudget,
  EmailDelivery,
  type EmailRequest,
} from './delivery.js';
export {
  createEmailSendHandler,
  EMAIL_MAX_ATTEMPTS,
  type EmailDocumentPort,
  emailJobOptions,
} from './send-job.js';
export {
  createEmailSender,
  type EmailLog,
  type EmailMessage,
  type EmailSender,
  type SendResult,
} from './sender.js';

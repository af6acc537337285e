"""Fine-tune a causal language model with FSDP."""
import argparse


def parse_args():
    parser = argparse.ArgumentParser(description="FSDP fine-tuning")
    parser.add_argument("--model_name", type=str, default="meta-llama/Llama-3.1-8B")
    parser.add_argument("--log_every", type=int, default=10, help="steps between logs")
    parser.add_argument("--max_steps", type=int, default=1000)
    parser.add_argument("--checkpoint-dir", type=str, default="/fsx/checkpoints")
    parser.add_argument("--bf16", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    args = parse_args()

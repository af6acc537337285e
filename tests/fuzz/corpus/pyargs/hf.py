from dataclasses import dataclass, field

from transformers import HfArgumentParser, TrainingArguments


@dataclass
class ModelArguments:
    model_name: str = field(default="meta-llama/Llama-3.1-8B")


if __name__ == "__main__":
    model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()

import os
import torch


def main():
    torch.distributed.init_process_group("nccl")
    print(os.environ["RANK"])


if __name__ == "__main__":
    main()
